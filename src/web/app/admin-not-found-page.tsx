import { Compass, LayoutDashboard } from 'lucide-react';
import { Link, useLocation } from 'react-router';

import { ADMIN_MENU } from '@/app/navigation';
import { Button } from '@/components/ui/button';

/**
 * An /admin… address the console does not have, shown inside the admin layout: the operator keeps the
 * sidebar and gets the console's pages to choose from, never the public 404 with its countdown to `/`.
 */
export function AdminNotFoundPage() {
  const { pathname } = useLocation();
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 py-6" data-testid="admin-not-found">
      <div className="flex flex-col items-center gap-3 text-center">
        <div className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Compass className="size-7" aria-hidden="true" />
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Not found in the console</h1>
        <p className="text-muted-foreground">
          The admin console has no page at{' '}
          <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm break-all">{pathname}</code>. Pick
          one of its pages below, or go back to the dashboard.
        </p>
        <Button asChild>
          <Link to="/admin-dashboard">
            <LayoutDashboard aria-hidden="true" />
            Admin Dashboard
          </Link>
        </Button>
      </div>
      <nav aria-label="Console pages" className="grid gap-4 sm:grid-cols-2">
        {ADMIN_MENU.map((group) => (
          <section key={group.id} className="rounded-lg border bg-card p-4">
            <h2 className="mb-2 text-sm font-semibold text-muted-foreground">{group.title}</h2>
            <ul className="space-y-1 text-sm">
              {group.items.map((item) => (
                <li key={item.href}>
                  <Link to={item.href} className="text-primary underline-offset-4 hover:underline">
                    {item.title}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
    </div>
  );
}
