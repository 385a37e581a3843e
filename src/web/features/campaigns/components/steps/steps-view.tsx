import { MAX_STEPS } from '@shared/campaigns';
import { ArrowLeft, Info, ListPlus, Mail, Plus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import type { Campaign } from '../../api/campaigns';
import { CAMPAIGN_STATUS_LABELS, CAMPAIGN_STATUS_TONES } from '../../lib/campaign-display';
import { moveStep, readOnlyReason } from '../../lib/step-form';
import { STEP_LIMIT_MESSAGE, StepCard } from './step-card';

/**
 * The sequence as a vertical timeline. The user page and the admin twin render it; the admin one has no
 * write callbacks and reads every step in read-only mode.
 */
export function StepsView({
  campaign,
  basePath,
  backHref,
  backLabel,
  forceReadOnly = false,
  busy = false,
  onReorder,
  onDelete,
  onAdd,
  ownerNote,
  testRun,
}: {
  campaign: Campaign;
  /** `/campaigns/<id>` or `/admin/campaigns/<id>`. */
  basePath: string;
  backHref: string;
  backLabel: string;
  forceReadOnly?: boolean;
  busy?: boolean;
  onReorder?: (stepIds: string[]) => void;
  /** Answers whether the step was deleted (the page reports failures). */
  onDelete?: (stepId: string) => Promise<boolean>;
  onAdd?: () => void;
  ownerNote?: string;
  /** The owner's page: the test run panel (shown when the sequence has steps). */
  testRun?: ReactNode;
}) {
  const reason = forceReadOnly ? null : readOnlyReason(campaign.status);
  const readOnly = forceReadOnly || reason !== null;
  const steps = [...campaign.steps].sort((a, b) => a.position - b.position);
  const ids = steps.map((s) => s.id);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [deletePending, setDeletePending] = useState(false);
  const full = steps.length >= MAX_STEPS;
  const deletingIndex = steps.findIndex((s) => s.id === deleting);

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6" data-testid="steps-page">
      <div className="space-y-3">
        <Button variant="ghost" size="sm" className="-ml-2" asChild>
          <Link to={backHref}>
            <ArrowLeft aria-hidden="true" />
            {backLabel}
          </Link>
        </Button>
        <header className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-1">
            <h1 className="truncate text-2xl font-semibold tracking-tight" data-testid="steps-campaign-name">
              {campaign.name}
            </h1>
            <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <Badge variant={CAMPAIGN_STATUS_TONES[campaign.status]} data-testid="steps-campaign-status">
                {CAMPAIGN_STATUS_LABELS[campaign.status]}
              </Badge>
              <span>
                {steps.length} of {MAX_STEPS} steps
              </span>
              {ownerNote && <span>· {ownerNote}</span>}
            </p>
          </div>
          {!readOnly && onAdd && (
            <Button
              onClick={onAdd}
              disabled={busy || full}
              title={full ? STEP_LIMIT_MESSAGE : undefined}
              data-testid="add-step"
            >
              <Plus aria-hidden="true" />
              Add step
            </Button>
          )}
        </header>
      </div>

      {reason && (
        <Alert data-testid="steps-read-only">
          <Info aria-hidden="true" />
          <AlertDescription>{reason}</AlertDescription>
        </Alert>
      )}
      {steps.length > 0 && testRun}
      {!readOnly && full && (
        <p className="text-sm text-muted-foreground">{STEP_LIMIT_MESSAGE}; delete one to add another.</p>
      )}

      {steps.length === 0 ? (
        <Card className="py-10" data-testid="steps-empty">
          <CardContent className="flex flex-col items-center gap-3 text-center">
            <Mail className="size-10 text-muted-foreground" aria-hidden="true" />
            <div className="space-y-1">
              <h2 className="font-medium">No emails in this sequence yet</h2>
              <p className="max-w-md text-sm text-muted-foreground">
                Write the first email, then add follow-ups that go out a few days later to everyone who has
                not replied.
              </p>
            </div>
            {!readOnly && onAdd && (
              <Button onClick={onAdd} disabled={busy} data-testid="add-first-step">
                <ListPlus aria-hidden="true" />
                Write the first email
              </Button>
            )}
          </CardContent>
        </Card>
      ) : (
        <ol
          className="relative space-y-4 border-l-2 border-dashed border-border pl-6 sm:pl-8"
          aria-label="Sequence"
        >
          {steps.map((step, index) => (
            <li key={step.id} className="relative">
              <span
                className="absolute top-5 -left-[35px] flex size-6 items-center justify-center rounded-full border-2 border-background bg-primary text-xs font-semibold text-primary-foreground sm:-left-[43px]"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <StepCard
                step={step}
                index={index}
                count={steps.length}
                editHref={`${basePath}/step/${step.id}/edit`}
                readOnly={readOnly}
                busy={busy}
                onMove={onReorder ? (delta) => onReorder(moveStep(ids, index, delta)) : undefined}
                onDelete={onDelete ? () => setDeleting(step.id) : undefined}
              />
            </li>
          ))}
        </ol>
      )}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete step ${deletingIndex + 1}?`}
        description="Its emails and A/B variants are deleted. The steps after it move up."
        confirmLabel="Delete step"
        pendingLabel="Deleting…"
        destructive
        pending={deletePending}
        testId="delete-step-dialog"
        onConfirm={async () => {
          if (!deleting || !onDelete) return;
          setDeletePending(true);
          const deleted = await onDelete(deleting);
          setDeletePending(false);
          if (deleted) setDeleting(null);
        }}
      />
    </div>
  );
}
