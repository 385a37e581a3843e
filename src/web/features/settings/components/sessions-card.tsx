import type { SessionInfo } from '@shared/auth';
import { AlertCircle, LogOut, Monitor, MonitorSmartphone, RefreshCw, Smartphone, Tablet } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions, useRevokeSession } from '../api/revoke-session';
import { type DeviceKind, parseUserAgent } from '../lib/user-agent';

const DEVICE_ICONS: Record<DeviceKind, typeof Monitor> = {
  desktop: Monitor,
  mobile: Smartphone,
  tablet: Tablet,
  unknown: MonitorSmartphone,
};

/** The current session first, then the most recently active. */
function sortSessions(sessions: SessionInfo[]): SessionInfo[] {
  return [...sessions].sort((a, b) => {
    if (a.current !== b.current) return a.current ? -1 : 1;
    return Date.parse(b.updatedAt) - Date.parse(a.updatedAt);
  });
}

function SessionRow({
  session,
  onRevoke,
  revoking,
}: {
  session: SessionInfo;
  onRevoke: (session: SessionInfo) => void;
  revoking: boolean;
}) {
  const agent = parseUserAgent(session.userAgent);
  const Icon = DEVICE_ICONS[agent.device];
  return (
    <li
      className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
      data-testid="session-item"
      data-current={session.current ? 'true' : undefined}
    >
      <div className="flex min-w-0 items-start gap-3">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-secondary text-secondary-foreground">
          <Icon className="size-5" aria-hidden="true" />
        </div>
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium" title={session.userAgent ?? undefined}>
              {agent.label}
            </p>
            {session.current && (
              <Badge variant="success" data-testid="current-session-badge">
                This device
              </Badge>
            )}
          </div>
          <dl className="grid gap-x-4 gap-y-0.5 text-sm text-muted-foreground sm:grid-cols-[auto_auto_auto] sm:justify-start">
            <div className="flex gap-1">
              <dt>IP</dt>
              <dd className="font-mono text-xs leading-5 text-foreground/80">
                {session.ipAddress || 'Unknown'}
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>Signed in</dt>
              <dd>
                <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>Last active</dt>
              <dd>
                <time dateTime={session.updatedAt} title={formatDateTime(session.updatedAt)}>
                  {session.current ? 'now' : formatRelative(session.updatedAt)}
                </time>
              </dd>
            </div>
          </dl>
        </div>
      </div>
      {!session.current && (
        <Button
          variant="outline"
          size="sm"
          className="self-start sm:self-center"
          onClick={() => onRevoke(session)}
          disabled={revoking}
          aria-label={`Revoke the session on ${agent.label}`}
          data-testid="revoke-session"
        >
          <LogOut aria-hidden="true" />
          {revoking ? 'Revoking…' : 'Revoke'}
        </Button>
      )}
    </li>
  );
}

export function SessionsCard() {
  const sessionsQuery = useSessions();
  const revokeSession = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [confirmOpen, setConfirmOpen] = useState(false);

  const sessions = useMemo(() => sortSessions(sessionsQuery.data ?? []), [sessionsQuery.data]);
  const otherIds = sessions.filter((session) => !session.current).map((session) => session.id);

  const handleRevoke = (session: SessionInfo) => {
    const label = parseUserAgent(session.userAgent).label;
    revokeSession.mutate(session.id, {
      onSuccess: () => toast({ title: 'Session revoked', description: `${label} has been signed out.` }),
      onError: (error) =>
        toast({
          title: 'Session not revoked',
          description: getErrorMessage(error, 'We could not sign that session out. Please try again.'),
          variant: 'destructive',
        }),
    });
  };

  const handleRevokeOthers = () => {
    revokeOthers.mutate(undefined, {
      onSuccess: () => {
        setConfirmOpen(false);
        toast({
          title: 'Signed out everywhere else',
          description: 'Every other session has been signed out. This device stays signed in.',
        });
      },
      onError: (error) => {
        setConfirmOpen(false);
        toast({
          title: 'Some sessions are still active',
          description: getErrorMessage(error, 'We could not sign out every other session. Please try again.'),
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <Card data-testid="sessions-section" id="sessions" className="scroll-mt-24">
      <CardHeader>
        <CardTitle>
          <h2>Active sessions</h2>
        </CardTitle>
        <CardDescription>
          Devices signed in to your account. Revoke any you don't recognise, then change your password.
        </CardDescription>
        <CardAction>
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={() => sessionsQuery.refetch()}
            disabled={sessionsQuery.isFetching}
            aria-label="Refresh sessions"
          >
            <RefreshCw className={sessionsQuery.isFetching ? 'animate-spin' : undefined} aria-hidden="true" />
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-4">
        {sessionsQuery.isPending ? (
          <div className="space-y-4" role="status" aria-label="Loading sessions">
            {[0, 1].map((key) => (
              <div key={key} className="flex items-center gap-3">
                <Skeleton className="size-10 rounded-lg" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-3 w-64" />
                </div>
              </div>
            ))}
          </div>
        ) : sessionsQuery.isError ? (
          <Alert variant="destructive" data-testid="sessions-error">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>Sessions could not be loaded</AlertTitle>
            <AlertDescription className="flex flex-wrap items-center gap-3">
              <span>{getErrorMessage(sessionsQuery.error, 'Please try again.')}</span>
              <Button size="sm" variant="outline" onClick={() => sessionsQuery.refetch()}>
                Try again
              </Button>
            </AlertDescription>
          </Alert>
        ) : (
          <>
            <ul className="divide-y" data-testid="sessions-list" aria-label="Active sessions">
              {sessions.map((session) => (
                <SessionRow
                  key={session.id}
                  session={session}
                  onRevoke={handleRevoke}
                  revoking={revokeSession.isPending && revokeSession.variables === session.id}
                />
              ))}
            </ul>
            <div className="flex flex-col gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-muted-foreground">
                {otherIds.length === 0
                  ? 'This is your only active session.'
                  : `${otherIds.length} other ${otherIds.length === 1 ? 'session is' : 'sessions are'} signed in.`}
              </p>
              <Button
                variant="outline"
                onClick={() => setConfirmOpen(true)}
                disabled={otherIds.length === 0 || revokeOthers.isPending}
                data-testid="revoke-other-sessions"
              >
                <LogOut aria-hidden="true" />
                Sign out all other sessions
              </Button>
            </div>
          </>
        )}
      </CardContent>

      <AlertDialog
        open={confirmOpen}
        onOpenChange={(open) => !revokeOthers.isPending && setConfirmOpen(open)}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Sign out all other sessions?</AlertDialogTitle>
            <AlertDialogDescription>
              {otherIds.length === 1 ? 'One other device' : `${otherIds.length} other devices`} will be signed
              out and will need your password to sign in again. This device stays signed in.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={revokeOthers.isPending}>Cancel</AlertDialogCancel>
            <AlertDialogAction
              onClick={(event) => {
                event.preventDefault();
                handleRevokeOthers();
              }}
              disabled={revokeOthers.isPending}
              data-testid="confirm-revoke-other-sessions"
            >
              {revokeOthers.isPending ? 'Signing out…' : 'Sign out other sessions'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
