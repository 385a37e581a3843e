import type { AdminUser } from '@shared/admin';
import { PLAN_IDS, PLAN_NAMES, type PlanId } from '@shared/plans';
import { ROLE_LABELS, ROLES, type Role } from '@shared/roles';
import { Ban, Info, LogOut, RotateCcw } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Separator } from '@/components/ui/separator';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { useEndUserSessions } from '../api/end-user-sessions';
import { useAdminUser } from '../api/get-admin-users';
import { useRestoreUser } from '../api/restore-user';
import { useUpdateAdminUser } from '../api/update-admin-user';
import { SuspendUserDialog } from './suspend-user-dialog';
import { displayName, initials, SubscriptionBadge, UserStatusBadge } from './user-badges';

type PendingChange =
  | { kind: 'role'; value: Role }
  | { kind: 'plan'; value: PlanId }
  | { kind: 'end-sessions' };

function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-3 py-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function failureToast(title: string, error: unknown) {
  toast({ title, description: getErrorMessage(error, 'Please try again.'), variant: 'destructive' });
}

function UserDetails({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const updateUser = useUpdateAdminUser();
  const restore = useRestoreUser();
  const endSessions = useEndUserSessions();
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [suspendOpen, setSuspendOpen] = useState(false);
  const name = displayName(user);

  const confirmPending = () => {
    if (!pending) return;
    if (pending.kind === 'end-sessions') {
      endSessions.mutate(user.id, {
        onSuccess: () => {
          setPending(null);
          toast({
            title: 'Sessions ended',
            description: `${user.email} has been signed out on every device.`,
          });
        },
        onError: (error) => {
          setPending(null);
          failureToast('Sessions not ended', error);
        },
      });
      return;
    }
    const input = pending.kind === 'role' ? { role: pending.value } : { subscriptionPlan: pending.value };
    updateUser.mutate(
      { id: user.id, ...input },
      {
        onSuccess: (saved) => {
          setPending(null);
          toast({
            title: pending.kind === 'role' ? 'Role changed' : 'Plan changed',
            description:
              pending.kind === 'role'
                ? `${saved.email} is now ${ROLE_LABELS[saved.role]}.`
                : `${saved.email} is now on the ${PLAN_NAMES[saved.subscriptionPlan]} plan.`,
          });
        },
        onError: (error) => {
          setPending(null);
          failureToast(pending.kind === 'role' ? 'Role not changed' : 'Plan not changed', error);
        },
      },
    );
  };

  const onRestore = () =>
    restore.mutate(user.id, {
      onSuccess: (saved) =>
        toast({ title: 'User restored', description: `${saved.email} can sign in again.` }),
      onError: (error) => failureToast('User not restored', error),
    });

  const confirmCopy = (() => {
    if (!pending) return null;
    if (pending.kind === 'role') {
      const grantsAdmin = pending.value === 'super_admin';
      return {
        title: `Make ${name} ${ROLE_LABELS[pending.value]}?`,
        description: grantsAdmin
          ? 'Super admins can manage every account, plan and setting on the platform.'
          : `${name} will have the ${ROLE_LABELS[pending.value]} role and lose what their current role (${ROLE_LABELS[user.role]}) allowed.`,
        confirm: 'Change role',
        destructive: user.role === 'super_admin',
      };
    }
    if (pending.kind === 'plan') {
      return {
        title: `Move ${name} to ${PLAN_NAMES[pending.value]}?`,
        description: `Their limits change at once from the ${PLAN_NAMES[user.subscriptionPlan]} plan to the ${PLAN_NAMES[pending.value]} plan. No payment is taken or refunded.`,
        confirm: 'Change plan',
        destructive: false,
      };
    }
    return {
      title: `Sign ${name} out everywhere?`,
      description: `All ${formatNumber(user.activeSessions)} active ${user.activeSessions === 1 ? 'session ends' : 'sessions end'} now; they can sign in again with their password.`,
      confirm: 'End all sessions',
      destructive: true,
    };
  })();

  return (
    <div className="flex flex-1 flex-col gap-6 overflow-y-auto px-4 pb-6">
      {isSelf && (
        <Alert data-testid="self-notice">
          <Info aria-hidden="true" />
          <AlertTitle>This is your account</AlertTitle>
          <AlertDescription>
            You cannot suspend yourself or remove your own Super Admin role.
          </AlertDescription>
        </Alert>
      )}
      {user.banned && (
        <Alert variant="destructive" data-testid="suspension-notice">
          <Ban aria-hidden="true" />
          <AlertTitle>Suspended</AlertTitle>
          <AlertDescription>
            {user.banReason ? `Reason: ${user.banReason}` : 'No reason was recorded.'}
          </AlertDescription>
        </Alert>
      )}

      <section aria-labelledby="user-details-heading">
        <h3 id="user-details-heading" className="mb-1 text-sm font-semibold">
          Details
        </h3>
        <dl className="divide-y">
          <DetailRow label="Email">{user.email}</DetailRow>
          <DetailRow label="Subscription">
            <SubscriptionBadge user={user} />
          </DetailRow>
          {user.subscriptionInterval && (
            <DetailRow label="Billing">
              {user.subscriptionInterval === 'annual' ? 'Annual' : 'Monthly'}
            </DetailRow>
          )}
          {user.subscriptionCurrentPeriodEnd && (
            <DetailRow label="Period ends">{formatDate(user.subscriptionCurrentPeriodEnd)}</DetailRow>
          )}
          <DetailRow label="Joined">{formatDateTime(user.createdAt)}</DetailRow>
          <DetailRow label="Last active">
            {user.lastActiveAt ? (
              <time dateTime={user.lastActiveAt} title={formatDateTime(user.lastActiveAt)}>
                {formatRelative(user.lastActiveAt)}
              </time>
            ) : (
              'No active session'
            )}
          </DetailRow>
          <DetailRow label="Active sessions">{formatNumber(user.activeSessions)}</DetailRow>
          <DetailRow label="User ID">
            <code className="font-mono text-xs">{user.id}</code>
          </DetailRow>
        </dl>
      </section>

      <Separator />

      <section aria-labelledby="user-access-heading" className="space-y-4">
        <h3 id="user-access-heading" className="text-sm font-semibold">
          Access
        </h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="user-role">Role</Label>
            <Select
              value={user.role}
              onValueChange={(value) =>
                value !== user.role && setPending({ kind: 'role', value: value as Role })
              }
              disabled={updateUser.isPending}
            >
              <SelectTrigger id="user-role" className="w-full" data-testid="user-role-select">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {ROLES.map((role) => (
                  <SelectItem key={role} value={role}>
                    {ROLE_LABELS[role]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="user-plan">Plan</Label>
            <Select
              value={user.subscriptionPlan}
              onValueChange={(value) =>
                value !== user.subscriptionPlan && setPending({ kind: 'plan', value: value as PlanId })
              }
              disabled={updateUser.isPending}
            >
              <SelectTrigger id="user-plan" className="w-full" data-testid="user-plan-select">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {PLAN_IDS.map((plan) => (
                  <SelectItem key={plan} value={plan}>
                    {PLAN_NAMES[plan]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </div>
      </section>

      <Separator />

      <section aria-labelledby="user-actions-heading" className="space-y-3">
        <h3 id="user-actions-heading" className="text-sm font-semibold">
          Account actions
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            onClick={() => setPending({ kind: 'end-sessions' })}
            disabled={endSessions.isPending}
            data-testid="end-sessions"
          >
            <LogOut aria-hidden="true" />
            End all sessions
          </Button>
          {user.banned ? (
            <Button onClick={onRestore} disabled={restore.isPending} data-testid="restore-user">
              <RotateCcw aria-hidden="true" />
              {restore.isPending ? 'Restoring…' : 'Restore'}
            </Button>
          ) : (
            <Button variant="destructive" onClick={() => setSuspendOpen(true)} data-testid="suspend-user">
              <Ban aria-hidden="true" />
              Suspend
            </Button>
          )}
        </div>
      </section>

      {confirmCopy && (
        <ConfirmDialog
          open={pending !== null}
          onOpenChange={(open) => !open && setPending(null)}
          title={confirmCopy.title}
          description={confirmCopy.description}
          confirmLabel={confirmCopy.confirm}
          destructive={confirmCopy.destructive}
          pending={updateUser.isPending || endSessions.isPending}
          pendingLabel="Saving…"
          onConfirm={confirmPending}
          testId="confirm-user-change"
        />
      )}
      <SuspendUserDialog user={user} open={suspendOpen} onOpenChange={setSuspendOpen} />
    </div>
  );
}

/** The side panel of one user: details from the server, and the admin actions on the account. */
export function UserDetailSheet({
  userId,
  initialUser,
  onClose,
}: {
  userId: string | null;
  initialUser?: AdminUser;
  onClose: () => void;
}) {
  const { user: me } = useAuth();
  const detail = useAdminUser(userId);
  const user = detail.data ?? initialUser;

  return (
    <Sheet open={userId !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent className="w-full gap-0 sm:max-w-lg" data-testid="user-detail-sheet">
        <SheetHeader className="border-b pr-12">
          {user ? (
            <div className="flex items-center gap-3">
              <Avatar className="size-11">
                <AvatarFallback className="bg-primary/10 font-medium text-primary">
                  {initials(user)}
                </AvatarFallback>
              </Avatar>
              <div className="min-w-0 space-y-1">
                <SheetTitle className="truncate text-lg">{displayName(user)}</SheetTitle>
                <SheetDescription className="flex flex-wrap items-center gap-2">
                  <span className="truncate">{ROLE_LABELS[user.role]}</span>
                  <span aria-hidden="true">·</span>
                  <span>{PLAN_NAMES[user.subscriptionPlan]} plan</span>
                  <UserStatusBadge user={user} />
                </SheetDescription>
              </div>
            </div>
          ) : (
            <>
              <SheetTitle className="sr-only">User details</SheetTitle>
              <SheetDescription className="sr-only">Loading the user</SheetDescription>
              <div className="flex items-center gap-3">
                <Skeleton className="size-11 rounded-full" />
                <div className="space-y-2">
                  <Skeleton className="h-5 w-40" />
                  <Skeleton className="h-4 w-56" />
                </div>
              </div>
            </>
          )}
        </SheetHeader>
        <div className="flex min-h-0 flex-1 flex-col pt-4">
          {detail.isError && !user ? (
            <div className="px-4">
              <QueryError
                title="This user could not be loaded"
                error={detail.error}
                onRetry={() => detail.refetch()}
              />
            </div>
          ) : user ? (
            <UserDetails key={user.id} user={user} isSelf={me?.id === user.id} />
          ) : (
            <div className="space-y-3 px-4">
              {[0, 1, 2, 3, 4].map((key) => (
                <Skeleton key={key} className="h-6" />
              ))}
            </div>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
