import type { ContactTopic } from '@shared/support';
import { Activity, BookOpen, Briefcase, Handshake, LifeBuoy, Mail, MapPin } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CONTACT_EMAIL } from '@/components/marketing/public-footer';
import { Button } from '@/components/ui/button';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';

import { ContactForm } from '../components/contact-form';
import { PageHero } from '../components/marketing-blocks';

/** A mailto link with the subject filled in, so the message reaches the right person first time. */
function mailto(subject: string): string {
  return `mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent(subject)}`;
}

const CHANNELS = [
  {
    icon: Briefcase,
    title: 'Sales',
    body: 'Plans for larger teams, custom contact lists or a walkthrough of Tambari.',
    subject: 'Sales enquiry',
    topic: 'sales',
    testId: 'contact-sales',
  },
  {
    icon: LifeBuoy,
    title: 'Support',
    body: 'Help with your account, sender accounts, campaigns or a payment. Tell us the email you sign in with.',
    subject: 'Support request',
    topic: 'support',
    testId: 'contact-support',
  },
  {
    icon: Handshake,
    title: 'Partnerships',
    body: 'Agencies, data partners and integrations across Africa.',
    subject: 'Partnership',
    topic: 'partnerships',
    testId: 'contact-partnerships',
  },
] as const;

/** /contact: who to write to, and where answers may already be. */
export default function ContactPage() {
  usePublicPageMeta('/contact');
  const [topic, setTopic] = useState<ContactTopic>('support');
  return (
    <div className="px-4 py-16 sm:px-6 md:py-20" data-testid="contact-page">
      <PageHero
        eyebrow="Contact"
        title="Talk to the Tambari team"
        lede="Write to us any time: support is included on every plan, and the right person answers when you tell us what it is about."
        testId="contact-title"
      />
      <ul className="mx-auto mt-12 grid max-w-5xl gap-6 md:grid-cols-3">
        {CHANNELS.map((channel) => (
          <li key={channel.title} className="flex flex-col rounded-xl border bg-card p-6">
            <channel.icon className="size-6 text-primary" aria-hidden="true" />
            <h2 className="mt-4 text-lg font-semibold">{channel.title}</h2>
            <p className="mt-2 flex-1 text-sm text-muted-foreground">{channel.body}</p>
            <Button
              variant="outline"
              size="sm"
              className="mt-4 self-start"
              onClick={() => {
                setTopic(channel.topic);
                document.getElementById('contact-form-section')?.scrollIntoView({ behavior: 'smooth' });
              }}
            >
              Write to {channel.title}
            </Button>
            <a
              href={mailto(channel.subject)}
              className="mt-4 inline-flex items-center gap-2 text-sm font-medium text-primary hover:underline"
              data-testid={channel.testId}
            >
              <Mail className="size-4" aria-hidden="true" />
              {CONTACT_EMAIL}
            </a>
          </li>
        ))}
      </ul>
      <section
        id="contact-form-section"
        aria-labelledby="contact-form-heading"
        className="mx-auto mt-12 max-w-5xl rounded-xl border bg-card p-6 sm:p-8"
      >
        <h2 id="contact-form-heading" className="text-xl font-semibold">
          Send us a message
        </h2>
        <p className="mt-1 mb-6 text-sm text-muted-foreground">
          It reaches the team directly, and we email you a copy. We answer within one working day.
        </p>
        <ContactForm topic={topic} />
      </section>
      <div className="mx-auto mt-12 grid max-w-5xl gap-6 md:grid-cols-2">
        <div className="rounded-xl border bg-card p-6">
          <h2 className="flex items-center gap-2 font-semibold">
            <MapPin className="size-5 text-primary" aria-hidden="true" />
            Office
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">Lagos, Nigeria</p>
        </div>
        <div className="rounded-xl border bg-card p-6">
          <h2 className="font-semibold">Quicker answers</h2>
          <ul className="mt-2 space-y-2 text-sm">
            <li>
              <Link to="/help" className="inline-flex items-center gap-2 text-primary hover:underline">
                <BookOpen className="size-4" aria-hidden="true" />
                Help Center: setup guides and common questions
              </Link>
            </li>
            <li>
              <Link to="/status" className="inline-flex items-center gap-2 text-primary hover:underline">
                <Activity className="size-4" aria-hidden="true" />
                System Status: is sending working right now?
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </div>
  );
}
