import type { AdminUser } from '@shared/admin';
import { Badge } from '@/components/ui/badge';

export function UserStatusBadge({ user }: { user: Pick<AdminUser, 'banned'> }) {
  return user.banned ? (
    <Badge variant="destructive" data-testid="user-status-badge" data-status="suspended">
      Suspended
    </Badge>
  ) : (
    <Badge variant="success" data-testid="user-status-badge" data-status="active">
      Active
    </Badge>
  );
}

const SUBSCRIPTION_LABELS: Record<string, string> = {
  active: 'Active',
  incomplete: 'Incomplete',
  cancelled: 'Cancelled',
  past_due: 'Past due',
  expired: 'Expired',
};

export function subscriptionLabel(user: Pick<AdminUser, 'subscriptionPlan' | 'subscriptionStatus'>): string {
  if (!user.subscriptionStatus) return user.subscriptionPlan === 'free' ? 'No payment needed' : 'Not started';
  return SUBSCRIPTION_LABELS[user.subscriptionStatus] ?? user.subscriptionStatus.replace(/_/g, ' ');
}

export function SubscriptionBadge({
  user,
}: {
  user: Pick<AdminUser, 'subscriptionPlan' | 'subscriptionStatus'>;
}) {
  const status = user.subscriptionStatus;
  const variant =
    status === 'active'
      ? 'success'
      : status === 'past_due' || status === 'expired'
        ? 'destructive'
        : status === 'incomplete'
          ? 'warning'
          : 'outline';
  return <Badge variant={variant}>{subscriptionLabel(user)}</Badge>;
}

/** "Ada Obi", or the email's handle when the account has no name. */
export function displayName(user: Pick<AdminUser, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || user.email.split('@')[0] || user.email;
}

export function initials(user: Pick<AdminUser, 'firstName' | 'lastName' | 'email'>): string {
  const parts = [user.firstName, user.lastName].filter((part): part is string => Boolean(part?.trim()));
  const letters = parts.length > 0 ? parts.map((part) => part.trim()[0]) : [user.email[0]];
  return letters.join('').slice(0, 2).toUpperCase();
}
