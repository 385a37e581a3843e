import { AlertTriangle, CheckCircle2, Loader2, RefreshCw, Rocket, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { getPlanLimitMessage } from '@/lib/plan-limit';
import { cn } from '@/lib/utils';
import {
  type PrelaunchItem,
  type PrelaunchReport,
  useCampaignAction,
  usePrelaunchReport,
} from '../api/campaigns';

const TONE = {
  blocker: { icon: XCircle, className: 'text-destructive', label: 'Must fix' },
  warning: { icon: AlertTriangle, className: 'text-warning-foreground', label: 'Check' },
  passed: { icon: CheckCircle2, className: 'text-success', label: 'Passed' },
} as const;

function ItemList({
  items,
  tone,
  campaignId,
  testId,
}: {
  items: PrelaunchItem[];
  tone: keyof typeof TONE;
  campaignId: string;
  testId: string;
}) {
  if (items.length === 0) return null;
  const { icon: Icon, className } = TONE[tone];
  return (
    <ul className="space-y-2" data-testid={testId}>
      {items.map((item, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: one code may appear once per step
          key={`${item.code}-${index}`}
          className="flex items-start gap-2.5 text-sm"
          data-testid="prelaunch-item"
          data-code={item.code}
        >
          <Icon className={cn('mt-0.5 size-4 shrink-0', className)} aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium">{item.message}</p>
            {item.detail && <p className="break-words text-muted-foreground">{item.detail}</p>}
            {item.stepId && tone !== 'passed' && (
              <Link
                to={`/campaigns/${campaignId}/step/${item.stepId}/edit`}
                className="text-primary underline-offset-4 hover:underline"
              >
                Open the step
              </Link>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

type SpamReport = NonNullable<PrelaunchReport['spam']>;

/**
 * The spam score of every step as it will be sent: which engine scored (SpamAssassin on the server, or
 * Tambari's built-in emulation of its local rules), the rules that fired with their points, and the
 * wording hints beside them.
 */
function SpamScores({ spam }: { spam: SpamReport }) {
  if (spam.copies.length === 0) return null;
  const engine = spam.engine === 'spamassassin' ? 'SpamAssassin' : 'Built-in rules';
  return (
    <section className="space-y-2" aria-labelledby="prelaunch-spam-title" data-testid="prelaunch-spam">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id="prelaunch-spam-title" className="text-sm font-semibold">
          Spam score as sent
        </h3>
        <p
          className="text-xs text-muted-foreground"
          data-testid="prelaunch-spam-engine"
          data-engine={spam.engine}
        >
          Scored by <span className="font-medium text-foreground">{engine}</span> ({spam.note}) ·{' '}
          {spam.required} marks spam
        </p>
      </div>
      <ul className="divide-y rounded-lg border">
        {spam.copies.map((copy) => (
          <li
            key={`${copy.stepId}-${copy.variantKey}`}
            className="space-y-1 p-3 text-sm"
            data-testid="prelaunch-spam-copy"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-medium">{copy.at}</p>
              <p
                className={cn(
                  'font-semibold tabular-nums',
                  copy.score >= spam.required
                    ? 'text-destructive'
                    : copy.score >= 2
                      ? 'text-warning-foreground'
                      : 'text-success',
                )}
                data-testid="prelaunch-spam-score"
              >
                {copy.score.toFixed(1)} / {spam.required}
              </p>
            </div>
            {copy.rules.length === 0 ? (
              <p className="text-muted-foreground">No rule with points fired.</p>
            ) : (
              <ul className="space-y-0.5" aria-label={`Rules that fired on ${copy.at}`}>
                {copy.rules.map((rule) => (
                  <li key={rule.rule} className="flex gap-2">
                    <span className="w-12 shrink-0 text-right tabular-nums">
                      {rule.score > 0 ? '+' : ''}
                      {rule.score.toFixed(1)}
                    </span>
                    <span className="min-w-0 break-words">
                      <code className="text-xs">{rule.rule}</code>{' '}
                      <span className="text-muted-foreground">{rule.description}</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {copy.hints.length > 0 && (
              <p className="text-xs text-muted-foreground">
                Wording hints (Tambari’s word list, not counted above):{' '}
                {copy.hints.map((h) => `${h.description} (+${h.score.toFixed(1)})`).join('; ')}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Blockers answered by a refused launch (422 `errors: Item[]`). */
function launchBlockers(error: unknown): PrelaunchItem[] {
  const list = (parseApiError(error).data as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (item): item is PrelaunchItem =>
      Boolean(item) &&
      typeof item === 'object' &&
      typeof (item as { message?: unknown }).message === 'string',
  );
}

/**
 * The pre-launch check of a draft: what blocks the launch, what deserves a look, what passed, the
 * audience size and the estimated finish — and the Launch button once nothing blocks.
 */
export function PrelaunchPanel({
  campaignId,
  scheduledAt,
}: {
  campaignId: string;
  scheduledAt: string | null;
}) {
  const [checked, setChecked] = useState(false);
  const report = usePrelaunchReport(campaignId, checked);
  const launch = useCampaignAction();
  const [refused, setRefused] = useState<{ message: string; blockers: PrelaunchItem[] } | null>(null);
  const data = report.data;
  const later = scheduledAt && new Date(scheduledAt).getTime() > Date.now();

  const onLaunch = async () => {
    setRefused(null);
    try {
      const campaign = await launch.mutateAsync({ id: campaignId, action: 'launch' });
      toast({
        title: campaign.status === 'scheduled' ? 'Campaign scheduled' : 'Campaign launched',
        description:
          campaign.status === 'scheduled'
            ? `It starts ${formatDate(campaign.scheduledAt)}.`
            : `${formatNumber(campaign.contactCount)} contacts are in the sequence.`,
      });
    } catch (error) {
      const blockers = launchBlockers(error);
      setRefused({
        message: getPlanLimitMessage(error) ?? getErrorMessage(error, 'The campaign could not be launched.'),
        blockers,
      });
      void report.refetch();
    }
  };

  return (
    <Card className="border-primary/40" data-testid="prelaunch-panel">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle>
            <h2>Pre-launch check</h2>
          </CardTitle>
          <CardDescription>
            Merge tags for every contact, spam words and links, unsubscribe, sender health and domain records
            — checked before anything is sent.
          </CardDescription>
        </div>
        {!checked ? (
          <Button onClick={() => setChecked(true)} data-testid="prelaunch-run">
            Run the check
          </Button>
        ) : (
          <Button
            variant="outline"
            onClick={() => void report.refetch()}
            disabled={report.isFetching}
            data-testid="prelaunch-rerun"
          >
            {report.isFetching ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <RefreshCw aria-hidden="true" />
            )}
            Check again
          </Button>
        )}
      </CardHeader>
      {checked && (
        <CardContent className="space-y-5">
          {report.isPending ? (
            <div className="space-y-2" aria-busy="true">
              <Skeleton className="h-5 w-2/3" />
              <Skeleton className="h-5 w-1/2" />
              <Skeleton className="h-5 w-3/5" />
            </div>
          ) : report.isError ? (
            <QueryError
              title="The check could not run"
              error={report.error}
              onRetry={() => void report.refetch()}
              testId="prelaunch-error"
            />
          ) : data ? (
            <>
              <div className="grid gap-3 sm:grid-cols-3">
                <div className="rounded-lg border p-3">
                  <p className="text-xs font-medium text-muted-foreground">Audience</p>
                  <p className="text-xl font-semibold tabular-nums" data-testid="prelaunch-audience">
                    {formatNumber(data.audienceSize)}
                  </p>
                  <p className="text-xs text-muted-foreground">after duplicates and suppressions</p>
                </div>
                <div className="rounded-lg border p-3">
                  <p className="text-xs font-medium text-muted-foreground">Estimated finish</p>
                  <p className="text-xl font-semibold" data-testid="prelaunch-finish">
                    {data.estimatedFinish ? formatDate(data.estimatedFinish) : '—'}
                  </p>
                  <p className="text-xs text-muted-foreground">from caps, window and accounts</p>
                </div>
                <div className="rounded-lg border p-3">
                  <p className="text-xs font-medium text-muted-foreground">Result</p>
                  <p
                    className={cn('text-xl font-semibold', data.ready ? 'text-success' : 'text-destructive')}
                    data-testid="prelaunch-ready"
                    data-ready={data.ready}
                  >
                    {data.ready ? 'Ready to launch' : `${data.blockers.length} to fix`}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {formatNumber(data.warnings.length)} {data.warnings.length === 1 ? 'warning' : 'warnings'}
                    , {formatNumber(data.passed.length)} passed
                  </p>
                </div>
              </div>
              <ItemList
                items={data.blockers}
                tone="blocker"
                campaignId={campaignId}
                testId="prelaunch-blockers"
              />
              <ItemList
                items={data.warnings}
                tone="warning"
                campaignId={campaignId}
                testId="prelaunch-warnings"
              />
              {data.spam && <SpamScores spam={data.spam} />}
              {data.passed.length > 0 && (
                <details className="text-sm">
                  <summary className="cursor-pointer text-muted-foreground">
                    Show what passed ({formatNumber(data.passed.length)})
                  </summary>
                  <div className="pt-2">
                    <ItemList
                      items={data.passed}
                      tone="passed"
                      campaignId={campaignId}
                      testId="prelaunch-passed"
                    />
                  </div>
                </details>
              )}
            </>
          ) : null}

          {refused && (
            <Alert variant="destructive" data-testid="launch-refused">
              <XCircle aria-hidden="true" />
              <AlertTitle>{refused.message}</AlertTitle>
              {refused.blockers.length > 0 && (
                <AlertDescription>
                  <ul className="list-disc pl-4">
                    {refused.blockers.map((item, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: display only
                      <li key={index}>{item.message}</li>
                    ))}
                  </ul>
                </AlertDescription>
              )}
            </Alert>
          )}

          <div className="flex flex-col gap-2 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">
              {later
                ? `Launching schedules it to start ${formatDate(scheduledAt)}.`
                : 'Launching copies the audience into the campaign and starts sending within its window.'}
            </p>
            <Button
              size="lg"
              onClick={() => void onLaunch()}
              disabled={!data?.ready || launch.isPending || report.isFetching}
              data-testid="launch-campaign"
            >
              {launch.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Rocket aria-hidden="true" />
              )}
              {later ? 'Schedule campaign' : 'Launch campaign'}
            </Button>
          </div>
        </CardContent>
      )}
    </Card>
  );
}
