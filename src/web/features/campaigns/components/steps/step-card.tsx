import { MAX_STEPS } from '@shared/campaigns';
import { ArrowDown, ArrowUp, Clock, Eye, Filter, Pencil, Trash2, Trophy } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { CampaignStep } from '../../api/campaigns';
import {
  conditionLabel,
  describeCondition,
  describeStepTiming,
  WINNER_METRIC_LABELS,
} from '../../lib/step-form';

/** One step of the sequence: timing, condition, its variants' subjects and split, and its actions. */
export function StepCard({
  step,
  index,
  count,
  editHref,
  readOnly,
  busy,
  onMove,
  onDelete,
}: {
  step: CampaignStep;
  index: number;
  count: number;
  editHref: string;
  readOnly: boolean;
  busy: boolean;
  onMove?: (delta: -1 | 1) => void;
  onDelete?: () => void;
}) {
  const isFirst = index === 0;
  const variants = [...step.variants].sort((a, b) => a.key.localeCompare(b.key));
  const testId = `step-card-${index + 1}`;
  return (
    <Card className="gap-3 py-4" data-testid={testId} data-step-id={step.id}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2 px-4">
        <div className="min-w-0 space-y-1">
          <CardTitle className="text-base">Step {index + 1}</CardTitle>
          <p
            className="flex items-center gap-1.5 text-sm text-muted-foreground"
            data-testid={`${testId}-timing`}
          >
            <Clock className="size-3.5 shrink-0" aria-hidden="true" />
            {describeStepTiming(step, isFirst)}
          </p>
          <p
            className="flex items-center gap-1.5 text-sm text-muted-foreground"
            data-testid={`${testId}-condition`}
          >
            <Filter className="size-3.5 shrink-0" aria-hidden="true" />
            {isFirst
              ? describeCondition(step.condition, true)
              : `${conditionLabel(step.condition)} · ${describeCondition(step.condition, false)}`}
          </p>
        </div>
        <div className="flex items-center gap-1">
          {!readOnly && onMove && (
            <>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Move step ${index + 1} up`}
                disabled={busy || index === 0}
                onClick={() => onMove(-1)}
                data-testid={`${testId}-up`}
              >
                <ArrowUp aria-hidden="true" />
              </Button>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Move step ${index + 1} down`}
                disabled={busy || index === count - 1}
                onClick={() => onMove(1)}
                data-testid={`${testId}-down`}
              >
                <ArrowDown aria-hidden="true" />
              </Button>
            </>
          )}
          <Button variant="outline" size="sm" asChild>
            <Link to={editHref} data-testid={`${testId}-edit`}>
              {readOnly ? <Eye aria-hidden="true" /> : <Pencil aria-hidden="true" />}
              {readOnly ? 'View' : 'Edit'}
            </Link>
          </Button>
          {!readOnly && onDelete && (
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={`Delete step ${index + 1}`}
              disabled={busy}
              onClick={onDelete}
              data-testid={`${testId}-delete`}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="space-y-2 px-4">
        <ul className="divide-y rounded-md border">
          {variants.map((variant) => (
            <li key={variant.id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <Badge variant="outline" className="font-mono" aria-label={`Variant ${variant.key}`}>
                {variant.key}
              </Badge>
              <span
                className="min-w-0 flex-1 truncate"
                title={variant.subject}
                data-testid={`${testId}-subject-${variant.key}`}
              >
                {variant.subject || (
                  <em className="text-muted-foreground">
                    {step.position > 1 ? 'Re: reply in the same thread' : 'No subject'}
                  </em>
                )}
              </span>
              {variants.length > 1 && (
                <span className="shrink-0 tabular-nums text-muted-foreground">{variant.splitPercent}%</span>
              )}
              {step.winnerVariantKey === variant.key && (
                <Badge variant="success">
                  <Trophy aria-hidden="true" />
                  Winner
                </Badge>
              )}
            </li>
          ))}
        </ul>
        {step.winnerRule && variants.length > 1 && (
          <p className="text-xs text-muted-foreground">
            Winner by {WINNER_METRIC_LABELS[step.winnerRule.metric].toLowerCase()} after{' '}
            {step.winnerRule.afterSends.toLocaleString()} sends
          </p>
        )}
      </CardContent>
    </Card>
  );
}

export const STEP_LIMIT_MESSAGE = `A campaign can have at most ${MAX_STEPS} steps`;
