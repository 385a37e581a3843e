import { STEP_CONDITION_LABELS } from '@shared/campaigns';
import type { SenderAccount } from '@shared/sending';
import { Trophy } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import type { Campaign, CampaignStats, Counts } from '../api/campaigns';
import { clampPercent, formatGap, formatRate, formatWindow } from '../lib/campaign-display';

const WINNER_METRIC_LABEL = { open: 'open rate', click: 'click rate', reply: 'reply rate' } as const;

function Stat({
  label,
  value,
  rate,
  testId,
}: {
  label: string;
  value: number;
  rate?: string;
  testId: string;
}) {
  return (
    <div className="rounded-lg border p-3" data-testid={testId}>
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums" data-testid={`${testId}-value`}>
        {formatNumber(value)}
      </p>
      {rate !== undefined && <p className="text-xs text-muted-foreground">{rate}</p>}
    </div>
  );
}

/** Progress bar, the contacts' states and the campaign's totals. */
export function CampaignProgressCard({
  campaign,
  stats,
  loading,
}: {
  campaign: Campaign;
  stats: CampaignStats | undefined;
  loading: boolean;
}) {
  const percent = clampPercent(stats?.progressPercent);
  const totals = stats?.totals;
  return (
    <Card data-testid="campaign-progress">
      <CardHeader>
        <CardTitle>
          <h2>Progress</h2>
        </CardTitle>
        <CardDescription>
          {campaign.status === 'draft'
            ? 'Nothing is sent until you launch the campaign.'
            : campaign.status === 'scheduled'
              ? `Starts ${formatDateTime(campaign.scheduledAt)}.`
              : campaign.startedAt
                ? `Started ${formatDateTime(campaign.startedAt)}${campaign.completedAt ? `, ended ${formatDateTime(campaign.completedAt)}` : ''}.`
                : 'Waiting for its first send.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {loading && !stats ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <>
            <div className="space-y-2">
              <div className="flex items-center justify-between text-sm">
                <span className="text-muted-foreground">
                  {formatNumber(stats?.contacts.total ?? campaign.contactCount)} contacts ·{' '}
                  {formatNumber(stats?.contacts.active ?? 0)} still in sequence ·{' '}
                  {formatNumber(stats?.queued ?? 0)} emails queued
                </span>
                <span className="font-medium tabular-nums" data-testid="campaign-progress-percent">
                  {percent}%
                </span>
              </div>
              <Progress value={percent} aria-label="Campaign progress" />
            </div>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
              <Stat label="Sent" value={totals?.sent ?? 0} testId="total-sent" />
              <Stat
                label="Opened"
                value={totals?.openedHuman ?? 0}
                rate={formatRate(totals?.openedHuman ?? 0, totals?.sent ?? 0)}
                testId="total-opened"
              />
              <Stat
                label="Clicked"
                value={totals?.clicked ?? 0}
                rate={formatRate(totals?.clicked ?? 0, totals?.sent ?? 0)}
                testId="total-clicked"
              />
              <Stat
                label="Replied"
                value={totals?.replied ?? 0}
                rate={formatRate(totals?.replied ?? 0, totals?.sent ?? 0)}
                testId="total-replied"
              />
              <Stat
                label="Bounced"
                value={totals?.bounced ?? 0}
                rate={formatRate(totals?.bounced ?? 0, totals?.sent ?? 0)}
                testId="total-bounced"
              />
              <Stat
                label="Unsubscribed"
                value={totals?.unsubscribed ?? 0}
                rate={formatRate(totals?.unsubscribed ?? 0, totals?.sent ?? 0)}
                testId="total-unsubscribed"
              />
            </div>
            {totals && totals.opened > totals.openedHuman && (
              <p className="text-xs text-muted-foreground">
                {formatNumber(totals.opened - totals.openedHuman)} more opens came from mail privacy proxies
                (such as Apple Mail) and are not counted as people reading.
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function delayText(step: Campaign['steps'][number]): string {
  if (step.position === 1) return 'First email';
  const parts: string[] = [];
  if (step.delayDays)
    parts.push(
      `${step.delayDays} ${step.businessDays ? 'business ' : ''}day${step.delayDays === 1 ? '' : 's'}`,
    );
  if (step.delayHours) parts.push(`${step.delayHours} hour${step.delayHours === 1 ? '' : 's'}`);
  return parts.length ? `${parts.join(' ')} later` : 'Right after';
}

function CountCells({ counts }: { counts: Counts | undefined }) {
  const c = counts;
  const sent = c?.sent ?? 0;
  return (
    <>
      <TableCell className="text-right tabular-nums">{formatNumber(sent)}</TableCell>
      <TableCell className="text-right tabular-nums">
        {formatNumber(c?.openedHuman ?? 0)}
        <span className="block text-xs text-muted-foreground">{formatRate(c?.openedHuman ?? 0, sent)}</span>
      </TableCell>
      <TableCell className="text-right tabular-nums">
        {formatNumber(c?.clicked ?? 0)}
        <span className="block text-xs text-muted-foreground">{formatRate(c?.clicked ?? 0, sent)}</span>
      </TableCell>
      <TableCell className="text-right tabular-nums">
        {formatNumber(c?.replied ?? 0)}
        <span className="block text-xs text-muted-foreground">{formatRate(c?.replied ?? 0, sent)}</span>
      </TableCell>
      <TableCell className="text-right tabular-nums">{formatNumber(c?.bounced ?? 0)}</TableCell>
      <TableCell className="text-right tabular-nums">{formatNumber(c?.unsubscribed ?? 0)}</TableCell>
    </>
  );
}

/** One row per step and variant: what was sent and how it did. */
export function StepStatsTable({
  campaign,
  stats,
}: {
  campaign: Campaign;
  stats: CampaignStats | undefined;
}) {
  const steps = [...campaign.steps].sort((a, b) => a.position - b.position);
  return (
    <Card data-testid="step-stats">
      <CardHeader>
        <CardTitle>
          <h2>Steps and variants</h2>
        </CardTitle>
        <CardDescription>
          Opens count people only; a reply or an unsubscribe ends that contact's sequence.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {steps.length === 0 ? (
          <p className="text-sm text-muted-foreground">This campaign has no emails yet.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Step</TableHead>
                  <TableHead>Variant</TableHead>
                  <TableHead className="text-right">Sent</TableHead>
                  <TableHead className="text-right">Opened</TableHead>
                  <TableHead className="text-right">Clicked</TableHead>
                  <TableHead className="text-right">Replied</TableHead>
                  <TableHead className="text-right">Bounced</TableHead>
                  <TableHead className="text-right">Unsub.</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {steps.flatMap((step) => {
                  const stepStats = stats?.steps.find((s) => s.stepId === step.id);
                  return step.variants.map((variant, index) => {
                    const counts = stepStats?.variants.find((v) => v.key === variant.key);
                    const winner = step.winnerVariantKey === variant.key;
                    return (
                      <TableRow key={variant.id} data-testid="step-stats-row">
                        {index === 0 && (
                          <TableCell rowSpan={step.variants.length} className="min-w-40 align-top">
                            <p className="font-medium">Step {step.position}</p>
                            <p className="text-xs text-muted-foreground">
                              {delayText(step)}
                              {step.position > 1 && step.condition !== 'always'
                                ? ` · ${STEP_CONDITION_LABELS[step.condition].toLowerCase()}`
                                : ''}
                            </p>
                            {step.winnerRule && (
                              <p className="text-xs text-muted-foreground">
                                Winner by {WINNER_METRIC_LABEL[step.winnerRule.metric]} after{' '}
                                {formatNumber(step.winnerRule.afterSends)} sends
                              </p>
                            )}
                          </TableCell>
                        )}
                        <TableCell className="max-w-72">
                          <p className="flex items-center gap-1.5 font-medium">
                            {variant.key}
                            {step.variants.length > 1 && (
                              <span className="text-xs font-normal text-muted-foreground">
                                {variant.splitPercent}%
                              </span>
                            )}
                            {winner && (
                              <span className="inline-flex items-center gap-1 text-xs text-success">
                                <Trophy className="size-3" aria-hidden="true" />
                                Winner
                              </span>
                            )}
                          </p>
                          <p className="truncate text-xs text-muted-foreground" title={variant.subject}>
                            {variant.subject || <em>Re: reply in the same thread</em>}
                          </p>
                        </TableCell>
                        <CountCells counts={counts} />
                      </TableRow>
                    );
                  });
                })}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** What the campaign sends to, from which accounts, when and how fast. */
export function CampaignSettingsCard({
  campaign,
  senderAccounts,
  listNames,
}: {
  campaign: Campaign;
  senderAccounts?: SenderAccount[];
  listNames?: Map<string, string>;
}) {
  const senders = campaign.senderAccountIds.map((id) => {
    const account = senderAccounts?.find((a) => a.id === id);
    return account ? `${account.label || account.fromEmail}` : null;
  });
  const known = senders.filter(Boolean) as string[];
  const lists = campaign.audience.listIds.map((id) => listNames?.get(id) ?? null).filter(Boolean) as string[];
  const audienceParts = [
    campaign.audience.listIds.length
      ? lists.length === campaign.audience.listIds.length
        ? lists.join(', ')
        : `${campaign.audience.listIds.length} ${campaign.audience.listIds.length === 1 ? 'list' : 'lists'}`
      : null,
    campaign.audience.leadFilters.length
      ? `${campaign.audience.leadFilters.length} lead-discovery ${campaign.audience.leadFilters.length === 1 ? 'selection' : 'selections'}`
      : null,
  ].filter(Boolean);
  const rows: Array<[string, string]> = [
    ['Audience', audienceParts.length ? audienceParts.join(' + ') : 'None chosen'],
    [
      'Sender accounts',
      campaign.senderAccountIds.length === 0
        ? 'None chosen'
        : known.length === campaign.senderAccountIds.length
          ? known.join(', ')
          : `${campaign.senderAccountIds.length} ${campaign.senderAccountIds.length === 1 ? 'account' : 'accounts'}`,
    ],
    ['Start', campaign.scheduledAt ? formatDateTime(campaign.scheduledAt) : 'When launched'],
    ['Sending window', formatWindow(campaign)],
    ['Gap between sends', formatGap(campaign.gapMinSeconds, campaign.gapMaxSeconds)],
    [
      'Daily cap',
      campaign.dailyCap ? `${formatNumber(campaign.dailyCap)} emails` : 'The accounts’ own limits',
    ],
    [
      'Per recipient domain',
      campaign.domainPacePerHour ? `At most ${formatNumber(campaign.domainPacePerHour)} an hour` : 'No limit',
    ],
    [
      'Tracking',
      [campaign.trackOpens && 'opens', campaign.trackClicks && 'clicks'].filter(Boolean).join(' and ') ||
        'Off',
    ],
    ...(campaign.trackingDomain ? [['Tracking domain', campaign.trackingDomain] as [string, string]] : []),
    [
      'Pauses itself',
      `Past ${campaign.bouncePausePercent}% bounces or ${campaign.complaintPausePercent}% spam complaints`,
    ],
  ];
  return (
    <Card data-testid="campaign-settings">
      <CardHeader>
        <CardTitle>
          <h2>Settings</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="min-w-0 break-words font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
