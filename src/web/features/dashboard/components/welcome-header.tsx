import type { User } from '@shared/auth';
import { Crown } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { greetedKey, greetingName, planBadgeLabel, welcomeWord } from '../lib/plan-display';

function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

function readGreeted(userId: string): boolean {
  try {
    return localStorage.getItem(greetedKey(userId)) !== null;
  } catch {
    return false;
  }
}

export function WelcomeHeader({ user }: { user: User }) {
  const premium = user.plan === 'premium';
  // Decided once per visit, so marking the user as greeted does not turn this greeting into "back".
  const [word] = useState(() =>
    welcomeWord({ createdAt: user.createdAt, greetedBefore: readGreeted(user.id), now: new Date() }),
  );
  useEffect(() => {
    try {
      localStorage.setItem(greetedKey(user.id), '1');
    } catch {
      // Storage may be unavailable (private mode); the greeting then errs towards "Welcome".
    }
  }, [user.id]);
  return (
    <header
      className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between"
      data-testid="welcome-header"
    >
      <div className="min-w-0 space-y-1">
        <p className="text-sm font-medium text-muted-foreground">{greeting(new Date())}</p>
        <h1 className="truncate text-2xl font-semibold tracking-tight sm:text-3xl">
          {word}, <span data-testid="welcome-name">{greetingName(user)}</span>
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
