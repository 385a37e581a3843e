import type { AuditEntry } from '@shared/admin';
import { ScrollText } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatRelative } from '@/lib/format';
import { formatAuditAction, formatAuditTarget, summariseAuditDetails } from '../lib/audit';

function actionVariant(action: string): 'destructive' | 'success' | 'secondary' | 'outline' {
  if (/suspend|ban|delete|revoke|end/i.test(action)) return 'destructive';
  if (/restore|unban|create|register/i.test(action)) return 'success';
  if (/update|role|plan|change/i.test(action)) return 'secondary';
  return 'outline';
}

export function AuditLogTable({
  entries,
  loading,
  skeletonRows = 5,
  testId = 'audit-log-table',
}: {
  entries: AuditEntry[] | undefined;
  loading?: boolean;
  skeletonRows?: number;
  testId?: string;
}) {
  if (!loading && entries && entries.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center"
        data-testid={`${testId}-empty`}
      >
        <ScrollText className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">No admin activity yet</p>
        <p className="max-w-sm text-sm text-muted-foreground">
          Role and plan changes, suspensions, restores and ended sessions are recorded here with who did them.
        </p>
      </div>
    );
  }

  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table data-testid={testId}>
        <TableHeader>
          <TableRow>
            <TableHead className="w-40">Time</TableHead>
            <TableHead>Actor</TableHead>
            <TableHead>Action</TableHead>
            <TableHead>Target</TableHead>
            <TableHead className="min-w-56">Details</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading || !entries
            ? Array.from({ length: skeletonRows }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={index}>
                  {[0, 1, 2, 3, 4].map((cell) => (
                    <TableCell key={cell}>
                      <Skeleton className="h-4 w-full max-w-32" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : entries.map((entry) => (
                <TableRow key={entry.id} data-testid="audit-log-row">
                  <TableCell className="whitespace-nowrap text-muted-foreground">
                    <time dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
                      {formatRelative(entry.createdAt)}
                    </time>
                  </TableCell>
                  <TableCell className="max-w-48 truncate" title={entry.actorEmail ?? undefined}>
                    {entry.actorEmail ?? <span className="text-muted-foreground">System</span>}
                  </TableCell>
                  <TableCell>
                    <Badge variant={actionVariant(entry.action)} title={entry.action}>
                      {formatAuditAction(entry.action)}
                    </Badge>
                  </TableCell>
                  <TableCell className="max-w-56 truncate" title={entry.targetId ?? undefined}>
                    {formatAuditTarget(entry)}
                  </TableCell>
                  <TableCell
                    className="max-w-80 truncate text-muted-foreground"
                    title={JSON.stringify(entry.details, null, 2)}
                  >
                    {summariseAuditDetails(entry.details)}
                  </TableCell>
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </div>
  );
}
