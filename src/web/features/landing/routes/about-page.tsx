import { Globe2, Handshake, ShieldCheck, Wallet } from 'lucide-react';

import { CONTACT_EMAIL } from '@/components/marketing/public-footer';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';

import { ClosingCallToAction, IconRowCard, PageHero, TintedBand } from '../components/marketing-blocks';

const BELIEFS = [
  {
    icon: Globe2,
    title: 'African markets first',
    body: 'Our directory, categories and defaults start from how business works in Lagos, Accra, Nairobi and Johannesburg, not as an afterthought to a foreign database.',
  },
  {
    icon: ShieldCheck,
    title: 'Email people want to receive',
    body: 'Verified contacts, sending caps, one-click unsubscribe and suppression lists are built in, because a good sender reputation is worth more than one more email.',
  },
  {
    icon: Wallet,
    title: 'Priced for local businesses',
    body: 'Plans are billed in Naira through Paystack, with a free plan to start and no dollar card needed.',
  },
  {
    icon: Handshake,
    title: 'Your mailboxes, your relationships',
    body: 'Mail leaves from the accounts you connect, so replies come straight to you and your customers know who they are talking to.',
  },
];

/** /about: what Tambari is for and the principles it keeps. */
export default function AboutPage() {
  usePublicPageMeta('/about');
  return (
    <div data-testid="about-page">
      <section className="px-4 py-16 sm:px-6 md:py-20">
        <PageHero
          eyebrow="About Tambari"
          title="Helping African businesses find customers and reach them"
          lede="Tambari is built in Lagos, Nigeria. We bring a verified business directory, cold email campaigns, newsletters and analytics together in one app, so a small sales team can prospect across the continent like a large one."
          testId="about-title"
        />
        <div className="mx-auto mt-12 max-w-3xl space-y-4 text-muted-foreground">
          <p>
            A tambari is the royal drum of the Hausa courts, beaten to announce news that matters to everyone
            who hears it. We chose the name because good outreach works the same way: a clear message, to the
            right people, at the right time.
          </p>
          <p>
            Too many growing businesses in Africa either pay in dollars for tools built for other markets or
            send email by hand from a single inbox. Tambari gives them verified contacts in the markets they
            serve, sequences that follow up on their own, sender rotation that protects their mailboxes, and
            reports that show what each campaign earned.
          </p>
        </div>
      </section>

      <TintedBand id="beliefs-heading" title="What we believe">
        <ul className="mt-10 grid gap-6 sm:grid-cols-2">
          {BELIEFS.map((belief) => (
            <IconRowCard key={belief.title} icon={belief.icon} title={belief.title} body={belief.body} />
          ))}
        </ul>
        <p className="mt-10 text-center text-sm text-muted-foreground">
          Questions, partnerships or press:{' '}
          <a href={`mailto:${CONTACT_EMAIL}`} className="font-medium text-primary hover:underline">
            {CONTACT_EMAIL}
          </a>
        </p>
      </TintedBand>

      <ClosingCallToAction appPath="/dashboard" appLabel="Go to your dashboard" />
    </div>
  );
}
