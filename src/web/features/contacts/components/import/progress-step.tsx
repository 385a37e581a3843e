import type { ImportSummary } from '@shared/imports';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useCancelImport } from '../../api/imports';
import { describeProgress, destinationNoun, existingLabel, importedLabel } from '../../lib/import-progress';

export function ImportCounts({ summary, live }: { summary: ImportSummary; live?: boolean }) {
  const counts = [
    {
      key: 'imported',
      label: importedLabel(summary.target),
      value: summary.importedRows,
      tone: 'text-success',
    },
    { key: 'duplicates', label: 'Duplicates in the file', value: summary.duplicateRows, tone: '' },
    { key: 'existing', label: existingLabel(summary.target), value: summary.existingRows, tone: '' },
    {
      key: 'invalid',
      label: 'Invalid',
      value: summary.invalidRows,
      tone: summary.invalidRows ? 'text-destructive' : '',
    },
  ];
  return (
    <dl
      className="grid grid-cols-2 gap-3 md:grid-cols-4"
      data-testid="import-counts"
      aria-live={live ? 'polite' : undefined}
    >
      {counts.map((count) => (
        <div key={count.key} className="rounded-lg border bg-card p-4">
          <dt className="text-sm text-muted-foreground">{count.label}</dt>
          <dd
            className={`mt-1 text-2xl font-semibold tabular-nums ${count.tone}`}
            data-testid={`import-count-${count.key}`}
          >
            {formatNumber(count.value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The running import: a bar moving every second, the counts so far, and Cancel. */
export function ProgressStep({ summary }: { summary: ImportSummary }) {
  const cancel = useCancelImport(summary.id);
  const [confirm, setConfirm] = useState(false);
  const progress = describeProgress(summary);
  const queued = summary.status === 'queued';

  return (
    <div className="grid gap-6" data-testid="import-progress-step">
      <div className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="flex items-center gap-2 font-medium" aria-live="polite">
            <Loader2 className="size-4 animate-spin text-primary" aria-hidden="true" />
            {queued ? 'Waiting for a free worker…' : `Importing ${summary.fileName}…`}
          </p>
          <p className="text-sm text-muted-foreground tabular-nums" data-testid="import-progress-text">
            {progress.text} · {progress.percent}%
          </p>
        </div>
        <Progress value={progress.percent} aria-label="Import progress" data-testid="import-progress-bar" />
        <p className="text-sm text-muted-foreground">
          You can leave this page: the import carries on in the background. Nothing reaches{' '}
          {destinationNoun(summary.target, summary.listName)} until it is complete.
        </p>
      </div>
      <ImportCounts summary={summary} live />
      <div className="flex justify-end">
        <Button
          variant="outline"
          onClick={() => setConfirm(true)}
          disabled={cancel.isPending}
          data-testid="cancel-import"
        >
          Cancel import
        </Button>
      </div>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Cancel this import?"
        description={
          <p>
            The import stops and nothing is imported: {destinationNoun(summary.target, summary.listName)}{' '}
            stays as it was.
          </p>
        }
        confirmLabel="Cancel import"
        pendingLabel="Cancelling…"
        destructive
        pending={cancel.isPending}
        testId="confirm-cancel-import"
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: () => setConfirm(false),
            onError: (error) => {
              setConfirm(false);
              toast({
                title: 'The import was not cancelled',
                description: getErrorMessage(error, 'Please try again.'),
                variant: 'destructive',
              });
            },
          })
        }
      />
    </div>
  );
}
