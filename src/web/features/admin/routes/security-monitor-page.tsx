import type { SignInFailure } from '@shared/admin';
import { ShieldCheck, Unlock } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useClearSignInLock, useSignInFailures } from '../api/sign-in-failures';
import { PaginationBar } from '../components/pagination-bar';

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function FailureRow({ entry, onLift }: { entry: SignInFailure; onLift: (email: string) => void }) {
  return (
    <TableRow data-testid="sign-in-failure-row">
      <TableCell className="max-w-64 truncate font-medium" title={entry.email}>
        {entry.email}
        {!entry.accountExists && (
          <Badge variant="outline" className="ml-2" title="Nobody has an account with this address">
            No account
          </Badge>
        )}
      </TableCell>
      <TableCell className="tabular-nums">{entry.failures}</TableCell>
      <TableCell className="tabular-nums">{entry.refused}</TableCell>
      <TableCell className="whitespace-nowrap text-muted-foreground">
        <When iso={entry.lastAttemptAt} />
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {entry.locked && entry.lockedUntil ? (
          <Badge variant="destructive">Locked until {formatDateTime(entry.lockedUntil)}</Badge>
        ) : (
          <span className="text-muted-foreground">Not locked</span>
        )}
      </TableCell>
      <TableCell className="text-right">
        <Button variant="outline" size="sm" onClick={() => onLift(entry.email)} data-testid="lift-lock">
          <Unlock aria-hidden="true" />
          {entry.locked ? 'Lift lock' : 'Forget'}
        </Button>
      </TableCell>
    </TableRow>
  );
}

/** Failed sign-ins and lockouts per address (the per-account throttle), for the operator. */
export default function SecurityMonitorPage() {
  const [page, setPage] = useState(1);
  const [lockedOnly, setLockedOnly] = useState(false);
  const [lifting, setLifting] = useState<string | null>(null);
  const failures = useSignInFailures(page, lockedOnly);
  const clear = useClearSignInLock();
  const entries = failures.data?.entries;

  const onConfirm = () => {
    if (!lifting) return;
    clear.mutate(lifting, {
      onSuccess: (result) => {
        toast({ title: 'Lock lifted', description: result.message });
        setLifting(null);
      },
      onError: (error) => {
        toast({
          title: 'Lock not lifted',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
        setLifting(null);
      },
    });
  };

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="security-monitor-page">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Security Monitor</h1>
          <p className="text-muted-foreground">
            Wrong passwords per email address in the last day. After 5 in 15 minutes an address is locked for
            a minute, twice as long after each further failure (at most 15 minutes); a correct password or a
            password reset clears it.
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id="locked-only"
            checked={lockedOnly}
            onCheckedChange={(checked) => {
              setLockedOnly(checked);
              setPage(1);
            }}
          />
          <Label htmlFor="locked-only">Locked only</Label>
        </div>
      </header>

      {failures.isError && (
        <QueryError
          title="Failed sign-ins could not be loaded"
          error={failures.error}
          onRetry={() => failures.refetch()}
          testId="sign-in-failures-error"
        />
      )}

      {!failures.isError && entries?.length === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center"
          data-testid="sign-in-failures-empty"
        >
          <ShieldCheck className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">{lockedOnly ? 'No address is locked' : 'No failed sign-ins'}</p>
        </div>
      ) : (
        !failures.isError && (
          <div className="overflow-x-auto rounded-lg border">
            <Table data-testid="sign-in-failures-table">
              <TableHeader>
                <TableRow>
                  <TableHead>Email</TableHead>
                  <TableHead>Failures</TableHead>
                  <TableHead title="Attempts refused while locked">Refused</TableHead>
                  <TableHead>Last attempt</TableHead>
                  <TableHead>Lock</TableHead>
                  <TableHead className="sr-only">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {entries
                  ? entries.map((entry) => <FailureRow key={entry.email} entry={entry} onLift={setLifting} />)
                  : Array.from({ length: 5 }, (_, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                      <TableRow key={index}>
                        {[0, 1, 2, 3, 4, 5].map((cell) => (
                          <TableCell key={cell}>
                            <Skeleton className="h-4 w-full max-w-32" />
                          </TableCell>
                        ))}
                      </TableRow>
                    ))}
              </TableBody>
            </Table>
          </div>
        )
      )}

      {failures.data && failures.data.total > failures.data.pageSize && (
        <PaginationBar
          page={failures.data.page}
          pageSize={failures.data.pageSize}
          total={failures.data.total}
          onPageChange={setPage}
          busy={failures.isFetching}
          noun="addresses"
        />
      )}

      <ConfirmDialog
        open={lifting !== null}
        onOpenChange={(open) => !open && setLifting(null)}
        title="Lift the lock?"
        description={
          <>
            <strong>{lifting}</strong> can try to sign in again at once and its failures are forgotten. The
            audit log records that you did it.
          </>
        }
        confirmLabel="Lift lock"
        pendingLabel="Lifting…"
        pending={clear.isPending}
        onConfirm={onConfirm}
        testId="lift-lock-dialog"
      />
    </div>
  );
}
