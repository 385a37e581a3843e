import { CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';

import { BrandLogo } from '@/components/brand-logo';
import { useDirectoryStats } from '@/hooks/use-directory-stats';
import { directoryFigure, NO_DIRECTORY_FIGURE } from '@/lib/directory-figures';

const POINTS = [
  'Multi-step cold email campaigns and newsletters in one place',
  'Sender rotation across your inboxes for 10,000+ sends a day',
  'Plans billed in Naira — start free, no card needed',
];

/** The two-column frame of the sign-in, sign-up and password screens. */
export function AuthShell({ children }: { children: ReactNode }) {
  // The directory point is a live figure of real verified records, never copy.
  const points = [directoryFigure(useDirectoryStats().data) ?? NO_DIRECTORY_FIGURE, ...POINTS];
  return (
    <div className="grid min-h-dvh lg:grid-cols-[1fr_1.05fr]">
      <div className="flex flex-col px-4 py-6 sm:px-8">
        <BrandLogo />
        <main id="main" className="flex flex-1 items-center justify-center py-10">
          <div className="w-full max-w-md">{children}</div>
        </main>
        <p className="text-center text-xs text-muted-foreground">
          © {new Date().getFullYear()} Tambari · Lagos, Nigeria
        </p>
      </div>
      <aside className="relative hidden overflow-hidden bg-sidebar text-sidebar-foreground lg:flex lg:flex-col lg:justify-center lg:px-14">
        <div
          className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-sidebar-primary/15 blur-3xl"
          aria-hidden="true"
        />
        <p className="text-sm font-semibold tracking-wide text-sidebar-primary uppercase">Tambari</p>
        <h2 className="mt-3 max-w-md text-3xl font-bold tracking-tight text-sidebar-accent-foreground">
          Carry your message across the continent.
        </h2>
        <p className="mt-3 max-w-md text-sidebar-muted">
          A tambari is the royal drum of the Hausa courts, beaten to carry an announcement far. Your outreach
          deserves the same reach.
        </p>
        <ul className="mt-8 space-y-3">
          {points.map((point) => (
            <li key={point} className="flex gap-3 text-sm">
              <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-sidebar-primary" aria-hidden="true" />
              {point}
            </li>
          ))}
        </ul>
      </aside>
    </div>
  );
}
