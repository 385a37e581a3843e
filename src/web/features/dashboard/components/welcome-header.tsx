import type { User } from '@shared/auth';
import { Crown } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { emailHandle, planBadgeLabel } from '../lib/plan-display';

function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export function WelcomeHeader({ user }: { user: User }) {
  const premium = user.plan === 'premium';
  return (
    <header
      className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between"
      data-testid="welcome-header"
    >
      <div className="min-w-0 space-y-1">
        <p className="text-sm font-medium text-muted-foreground">{greeting(new Date())}</p>
        <h1 className="truncate text-2xl font-semibold tracking-tight sm:text-3xl">
          Welcome back, <span data-testid="welcome-name">{emailHandle(user.email)}</span>
        </h1>
        <p className="text-muted-foreground">Find the right businesses and reach them from one place.</p>
      </div>
      <Badge
        variant="outline"
        className={cn(
          'h-7 shrink-0 gap-1.5 px-3 text-sm',
          premium
            ? 'border-gold/60 bg-gold/15 text-gold-foreground'
            : 'bg-secondary text-secondary-foreground',
        )}
        data-testid="plan-badge"
      >
        {premium && <Crown aria-hidden="true" />}
        {planBadgeLabel(user.plan)}
      </Badge>
    </header>
  );
}
