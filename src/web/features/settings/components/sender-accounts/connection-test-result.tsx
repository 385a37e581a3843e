import type { ConnectionTestResult } from '@shared/sending';
import { CircleCheck, CircleMinus, CircleX } from 'lucide-react';
import { cn } from '@/lib/utils';

function ResultRow({
  name,
  result,
  testId,
}: {
  name: string;
  result: { ok: boolean; message: string } | null;
  testId: string;
}) {
  const Icon = !result ? CircleMinus : result.ok ? CircleCheck : CircleX;
  return (
    <li
      className="flex items-start gap-2"
      data-testid={testId}
      data-ok={result ? String(result.ok) : undefined}
    >
      <Icon
        className={cn(
          'mt-0.5 size-4 shrink-0',
          !result ? 'text-muted-foreground' : result.ok ? 'text-success' : 'text-destructive',
        )}
        aria-hidden="true"
      />
      <p className="min-w-0 text-sm break-words">
        <span className="font-medium">
          {name}: {!result ? 'not set up' : result.ok ? 'connected' : 'failed'}
        </span>
        {result && <span className="text-muted-foreground"> — {result.message}</span>}
      </p>
    </li>
  );
}

/** Both halves of a connection test: sending (SMTP) and, when set up, reading replies (IMAP). */
export function ConnectionTestResultView({
  result,
  className,
}: {
  result: ConnectionTestResult;
  className?: string;
}) {
  const ok = result.smtp.ok && (result.imap?.ok ?? true);
  return (
    <div
      role="status"
      className={cn(
        'rounded-md border p-3',
        ok ? 'border-success/40 bg-success/5' : 'border-destructive/40 bg-destructive/5',
        className,
      )}
      data-testid="connection-test-result"
      data-ok={String(ok)}
    >
      <ul className="space-y-1.5">
        <ResultRow name="Outgoing mail (SMTP)" result={result.smtp} testId="connection-test-smtp" />
        <ResultRow name="Incoming mail (IMAP)" result={result.imap} testId="connection-test-imap" />
      </ul>
    </div>
  );
}
