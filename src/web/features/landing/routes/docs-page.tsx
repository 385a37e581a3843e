import { Activity, BookOpen, Code2, GraduationCap, type LucideIcon, Mail, Upload } from 'lucide-react';
import { Link } from 'react-router';

import { PAGE_META } from '@/app/page-meta';
import { usePageMeta } from '@/hooks/use-page-meta';

import { PageHero } from '../components/marketing-blocks';

interface DocLink {
  icon: LucideIcon;
  title: string;
  body: string;
  to: string;
  /** A server page (the API reference), not a route of this app. */
  external?: boolean;
}

const SECTIONS: { title: string; links: DocLink[] }[] = [
  {
    title: 'Get started',
    links: [
      {
        icon: GraduationCap,
        title: 'Getting started guide',
        body: 'Connect a mailbox, choose contacts and launch your first campaign, step by step.',
        to: '/help#getting-started',
      },
      {
        icon: Mail,
        title: 'Connect a mail server',
        body: 'SMTP and IMAP settings, app passwords for Gmail and Microsoft 365, and the live connection test.',
        to: '/help#connect-mail-server',
      },
      {
        icon: Upload,
        title: 'Import your contacts',
        body: 'CSV columns, custom fields, duplicates and what the import report means.',
        to: '/help#csv-import',
      },
    ],
  },
  {
    title: 'Go further',
    links: [
      {
        icon: BookOpen,
        title: 'Knowledge base',
        body: 'Deliverability, daily limits, sender rotation, unsubscribes, open rates and revenue tracking.',
        to: '/knowledge-base',
      },
      {
        icon: Code2,
        title: 'API reference',
        body: 'Every endpoint of the Tambari API with its parameters and answers (OpenAPI).',
        to: '/api/docs',
        external: true,
      },
      {
        icon: Activity,
        title: 'System status',
        body: 'Live checks of the app, the database, sending and tracking.',
        to: '/status',
      },
    ],
  },
];

const CARD =
  'flex h-full gap-4 rounded-xl border bg-card p-5 outline-none transition-shadow hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring';

function DocCard({ link }: { link: DocLink }) {
  const content = (
    <>
      <link.icon className="size-6 shrink-0 text-primary" aria-hidden="true" />
      <span>
        <span className="block font-semibold">{link.title}</span>
        <span className="mt-1 block text-sm text-muted-foreground">{link.body}</span>
      </span>
    </>
  );
  return link.external ? (
    <a href={link.to} className={CARD}>
      {content}
    </a>
  ) : (
    <Link to={link.to} className={CARD}>
      {content}
    </Link>
  );
}

/** Spec §2 /docs: the documentation hub. */
export default function DocsPage() {
  usePageMeta(PAGE_META['/docs']!);
  return (
    <div className="px-4 py-16 sm:px-6 md:py-20" data-testid="docs-page">
      <PageHero
        eyebrow="Documentation"
        title="Tambari documentation"
        lede="Guides for every step, from connecting your first mailbox to measuring what a campaign earned, and the API reference for developers."
        testId="docs-title"
      />
      <div className="mx-auto mt-12 max-w-5xl space-y-10">
        {SECTIONS.map((section) => (
          <section key={section.title} aria-labelledby={`docs-${section.title}`}>
            <h2 id={`docs-${section.title}`} className="text-xl font-semibold">
              {section.title}
            </h2>
            <ul className="mt-4 grid gap-4 md:grid-cols-3">
              {section.links.map((link) => (
                <li key={link.title}>
                  <DocCard link={link} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
