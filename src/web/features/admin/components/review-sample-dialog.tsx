import { categoryName } from '@shared/categories';
import type { OfficerRow, ReviewOutcome, SampleRecord } from '@shared/data-entry';
import { Check, PencilLine, RefreshCw, X } from 'lucide-react';
import { useState } from 'react';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { useReviewRecord, useReviewSample } from '../api/admin-data';

const OUTCOME_LABEL: Record<ReviewOutcome, string> = {
  correct: 'Correct',
  corrected: 'Corrected',
  invalid: 'Invalid',
};

function RecordReview({ officerId, record }: { officerId: string; record: SampleRecord }) {
  const review = useReviewRecord(officerId);
  const [note, setNote] = useState('');
  const [done, setDone] = useState<ReviewOutcome | null>(null);
  const mark = (outcome: ReviewOutcome) =>
    review.mutate(
      { contactId: record.id, outcome, note: note.trim() || null },
      { onSuccess: () => setDone(outcome) },
    );
  return (
    <li className="space-y-2 p-3" data-testid="review-record">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{record.companyName}</p>
          <p className="break-all text-sm">{record.email}</p>
          <p className="text-xs text-muted-foreground">
            {[
              record.contactName,
              record.phone,
              record.website,
              record.city,
              record.countryCode,
              categoryName(record.category),
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <p className="text-xs text-muted-foreground">Entered {formatDate(record.createdAt)}</p>
        </div>
        {done && (
          <Badge
            variant={done === 'correct' ? 'success' : done === 'corrected' ? 'warning' : 'destructive'}
            data-testid="review-done"
          >
            {OUTCOME_LABEL[done]}
          </Badge>
        )}
      </div>
      {!done && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <Input
            value={note}
            onChange={(event) => setNote(event.target.value)}
            placeholder="Note (what was wrong; needed for Invalid)"
            maxLength={300}
            aria-label={`Note on ${record.companyName}`}
            className="sm:flex-1"
          />
          <div className="flex gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={() => mark('correct')}
              disabled={review.isPending}
              data-testid="review-correct"
            >
              <Check aria-hidden="true" /> Correct
            </Button>
            <Button size="sm" variant="outline" onClick={() => mark('corrected')} disabled={review.isPending}>
              <PencilLine aria-hidden="true" /> Corrected
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => mark('invalid')}
              disabled={review.isPending || note.trim().length === 0}
              title={note.trim() ? undefined : 'Say why in the note first'}
            >
              <X aria-hidden="true" /> Invalid
            </Button>
          </div>
        </div>
      )}
      {review.isError && (
        <p className="text-sm text-destructive" role="alert">
          {getErrorMessage(review.error, 'The review could not be saved.')}
        </p>
      )}
    </li>
  );
}

/** A random sample of an officer's unreviewed records, each marked correct, corrected or invalid. */
export function ReviewSampleDialog({
  officer,
  onClose,
}: {
  officer: OfficerRow | null;
  onClose: () => void;
}) {
  const sample = useReviewSample(officer?.id ?? null);
  return (
    <Dialog open={officer !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl" data-testid="review-dialog">
        <DialogHeader>
          <DialogTitle>Second review: {officer?.name || officer?.email}</DialogTitle>
          <DialogDescription>
            Ten of their records at random, not reviewed before. Check each against its source and mark it:
            the officer's quality is the share found correct. "Invalid" also marks the record invalid in the
            directory.
          </DialogDescription>
        </DialogHeader>
        {sample.isError && (
          <QueryError
            title="The sample could not be drawn"
            error={sample.error}
            onRetry={() => sample.refetch()}
          />
        )}
        {sample.data ? (
          sample.data.records.length === 0 ? (
            <p
              className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground"
              data-testid="review-empty"
            >
              Nothing left to review: every record this officer entered has been reviewed (or they have
              entered none).
            </p>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">
                Drawn from {formatNumber(sample.data.unreviewed)} record
                {sample.data.unreviewed === 1 ? '' : 's'} not reviewed before.
              </p>
              <ul className="divide-y rounded-md border">
                {sample.data.records.map((record) => (
                  <RecordReview key={record.id} officerId={sample.data.officerId} record={record} />
                ))}
              </ul>
            </>
          )
        ) : (
          !sample.isError && <Skeleton className="h-48 w-full" />
        )}
        <Button
          variant="outline"
          className="self-start"
          onClick={() => sample.refetch()}
          disabled={sample.isFetching}
        >
          <RefreshCw aria-hidden="true" /> Draw a new sample
        </Button>
      </DialogContent>
    </Dialog>
  );
}
