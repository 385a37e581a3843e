import type { User } from '@shared/auth';
import { LayoutDashboard, Menu, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';

import { AccountMenu } from '@/app/layouts/account-menu';
import type { ViewMode } from '@/app/view-mode';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** Only super admins get the switch between the user and admin dashboards. */
function ViewSwitcher({ viewMode }: { viewMode: ViewMode }) {
  const options = [
    { mode: 'user' as const, label: 'User Dashboard', to: '/dashboard', icon: LayoutDashboard },
    { mode: 'admin' as const, label: 'Admin Dashboard', to: '/admin-dashboard', icon: ShieldCheck },
  ];
  return (
    <nav aria-label="Switch dashboard" data-testid="view-switcher" className="flex rounded-lg bg-muted p-1">
      {options.map((option) => {
        const active = viewMode === option.mode;
        return (
          <Link
            key={option.mode}
            to={option.to}
            aria-current={active ? 'page' : undefined}
            data-testid={`view-switcher-${option.mode}`}
            className={cn(
              'flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-xs font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-sm',
              active
                ? 'bg-background text-foreground shadow-sm'
                : 'text-muted-foreground hover:text-foreground',
            )}
          >
            <option.icon className="size-4" aria-hidden="true" />
            <span className="hidden sm:inline">{option.label}</span>
            <span className="sm:hidden">{option.mode === 'user' ? 'User' : 'Admin'}</span>
          </Link>
        );
      })}
    </nav>
  );
}

export function AppHeader({
  user,
  title,
  viewMode,
  onOpenMenu,
}: {
  user: User;
  title: string;
  viewMode: ViewMode;
  onOpenMenu: () => void;
}) {
  return (
    <header
      className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/80 sm:px-6"
      data-testid="app-header"
    >
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        onClick={onOpenMenu}
        aria-label="Open navigation menu"
        data-testid="mobile-menu-button"
      >
        <Menu />
      </Button>
      {/* The page itself carries the h1; this is the running title of the shell. */}
      <p className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight" data-testid="page-title">
        {title}
      </p>
      <div className="flex items-center gap-2 sm:gap-3">
        {user.role === 'super_admin' && <ViewSwitcher viewMode={viewMode} />}
        <AccountMenu user={user} />
      </div>
    </header>
  );
}
