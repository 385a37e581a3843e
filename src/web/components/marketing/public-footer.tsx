import { Mail, MapPin } from 'lucide-react';
import { Link } from 'react-router';

import { BrandLogo } from '@/components/brand-logo';
import { StaticHtml } from '@/components/static-html';

export const CONTACT_EMAIL = 'hello@tambari.africa';

interface FooterLink {
  label: string;
  to?: string;
}

/** The footer's Platform, Support and Legal groups. Blog is a placeholder with no target. */
export const FOOTER_GROUPS: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Platform',
    links: [
      { label: 'Features', to: '/features' },
      { label: 'Business Leads', to: '/business-leads' },
      { label: 'Custom Contact Lists', to: '/custom-contact-lists' },
      { label: 'Email Newsletters', to: '/email-newsletters' },
      { label: 'Email Campaigns', to: '/email-campaigns' },
      { label: 'Bulk Emails', to: '/bulk-emails' },
      { label: 'Analytics & Reporting', to: '/analytics-reporting' },
      { label: 'Templates', to: '/templates' },
      { label: 'Pricing', to: '/pricing' },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Documentation', to: '/docs' },
      { label: 'Knowledge Base', to: '/knowledge-base' },
      { label: 'Help Center', to: '/help' },
      { label: 'Contact Us', to: '/contact' },
      { label: 'About Us', to: '/about' },
      { label: 'System Status', to: '/status' },
      { label: 'Blog' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy Policy', to: '/privacy' },
      { label: 'Terms of Service', to: '/terms' },
      { label: 'Refund Policy', to: '/refund-policy' },
      { label: 'Disclaimer', to: '/disclaimer' },
      { label: 'Cookie Policy', to: '/cookie-policy' },
    ],
  },
];

export function PublicFooter() {
  return (
    // Links and copy only: a prerendered page keeps its HTML instead of hydrating it.
    <StaticHtml
      as="footer"
      className="border-t bg-sidebar text-sidebar-foreground"
      data-testid="public-footer"
    >
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_repeat(3,1fr)]">
        <div className="space-y-4">
          <BrandLogo tone="inverted" />
          <p className="max-w-xs text-sm text-sidebar-muted">
            Verified business contacts across Africa, and the cold email and newsletters to reach them. Billed
            in Naira.
          </p>
          <ul className="space-y-2 text-sm">
            <li className="flex items-center gap-2">
              <MapPin className="size-4 text-sidebar-primary" aria-hidden="true" />
              Lagos, Nigeria
            </li>
            <li className="flex items-center gap-2">
              <Mail className="size-4 text-sidebar-primary" aria-hidden="true" />
              <a
                href={`mailto:${CONTACT_EMAIL}`}
                className="rounded-sm underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-sidebar-primary"
              >
                {CONTACT_EMAIL}
              </a>
            </li>
          </ul>
        </div>
        {FOOTER_GROUPS.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="mb-3 text-sm font-semibold text-sidebar-accent-foreground">{group.title}</h2>
            <ul className="space-y-2 text-sm">
              {group.links.map((link) => (
                <li key={link.label}>
                  {link.to ? (
                    <Link
                      to={link.to}
                      className="rounded-sm text-sidebar-muted outline-none transition-colors hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-sidebar-primary"
                    >
                      {link.label}
                    </Link>
                  ) : (
                    <span className="text-sidebar-muted">{link.label}</span>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-sidebar-border">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-sidebar-muted sm:px-6">
          © {new Date().getFullYear()} Tambari. All rights reserved.
        </p>
      </div>
    </StaticHtml>
  );
}
