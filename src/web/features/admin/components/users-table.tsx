import type { AdminUser } from '@shared/admin';
import { PLAN_NAMES } from '@shared/plans';
import { ROLE_LABELS } from '@shared/roles';
import { Users } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { displayName, SubscriptionBadge, UserStatusBadge } from './user-badges';

const COLUMNS = ['Name', 'Email', 'Role', 'Plan', 'Subscription', 'Sessions', 'Joined', 'Status'] as const;

export function UsersTable({
  users,
  loading,
  stale,
  filtered,
  onSelect,
}: {
  users: AdminUser[] | undefined;
  loading: boolean;
  /** The rows are the previous page while the next one loads. */
  stale?: boolean;
  filtered: boolean;
  onSelect: (user: AdminUser) => void;
}) {
  if (!loading && users && users.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center"
        data-testid="users-empty"
      >
        <Users className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">{filtered ? 'No users match these filters' : 'No users yet'}</p>
        <p className="max-w-sm text-sm text-muted-foreground">
          {filtered
            ? 'Try a different search or clear the filters.'
            : 'Accounts appear here as soon as people sign up.'}
        </p>
      </div>
    );
  }

  return (
    <div className={cn('overflow-x-auto rounded-lg border transition-opacity', stale && 'opacity-60')}>
      <Table data-testid="users-table" aria-busy={loading || stale}>
        <TableHeader>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableHead key={column} className={column === 'Sessions' ? 'text-right' : undefined}>
                {column}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading || !users
            ? Array.from({ length: 8 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={index}>
                  {COLUMNS.map((column) => (
                    <TableCell key={column}>
                      <Skeleton className="h-4 w-full max-w-28" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : users.map((user) => (
                <TableRow
                  key={user.id}
                  className="cursor-pointer"
                  onClick={() => onSelect(user)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' && event.target === event.currentTarget) onSelect(user);
                  }}
                  data-testid="user-row"
                  data-user-id={user.id}
                  data-state={user.banned ? 'suspended' : undefined}
                >
                  <TableCell className="font-medium">
                    <button
                      type="button"
                      className="max-w-48 truncate rounded-sm text-left outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                      onClick={(event) => {
                        event.stopPropagation();
                        onSelect(user);
                      }}
                      aria-label={`Open ${displayName(user)} (${user.email})`}
                    >
                      {displayName(user)}
                    </button>
                  </TableCell>
                  <TableCell className="max-w-56 truncate text-muted-foreground" title={user.email}>
                    {user.email}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{ROLE_LABELS[user.role]}</TableCell>
                  <TableCell>{PLAN_NAMES[user.subscriptionPlan]}</TableCell>
                  <TableCell>
                    <SubscriptionBadge user={user} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatNumber(user.activeSessions)}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">
                    <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
                  </TableCell>
                  <TableCell>
                    <UserStatusBadge user={user} />
                  </TableCell>
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </div>
  );
}
