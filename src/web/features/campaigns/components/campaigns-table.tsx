import type { CampaignStatus } from '@shared/sending';
import { Send } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { formatRate } from '../lib/campaign-display';
import { CampaignStatusBadge } from './campaign-status-badge';

/** What a row shows: the user's list items and the admin's (which add the owner) both fit. */
export interface CampaignRow {
  id: string;
  name: string;
  status: CampaignStatus;
  archivedAt: string | null;
  scheduledAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  contactCount: number;
  stepCount: number;
  sent: number;
  opened: number;
  replied: number;
  owner?: { email: string };
}

/** When the campaign started, will start, or was made (for drafts). */
function whenText(campaign: CampaignRow): string {
  if (campaign.completedAt) return `Ended ${formatDate(campaign.completedAt)}`;
  if (campaign.startedAt) return `Started ${formatDate(campaign.startedAt)}`;
  if (campaign.scheduledAt) return `Starts ${formatDate(campaign.scheduledAt)}`;
  return `Created ${formatDate(campaign.createdAt)}`;
}

/**
 * Campaigns with their numbers. The name links to the campaign page (`hrefFor`); `actions` renders a
 * row's menu; `showOwner` adds the admin list's owner column.
 */
export function CampaignsTable<T extends CampaignRow>({
  campaigns,
  loading,
  stale,
  hrefFor,
  actions,
  showOwner,
  empty,
  testId = 'campaigns-table',
}: {
  campaigns: T[] | undefined;
  loading: boolean;
  stale?: boolean;
  hrefFor: (campaign: T) => string;
  actions?: (campaign: T) => ReactNode;
  showOwner?: boolean;
  empty: ReactNode;
  testId?: string;
}) {
  if (!loading && campaigns && campaigns.length === 0) return <>{empty}</>;
  return (
    <div className={cn('rounded-lg border', stale && 'opacity-60 transition-opacity')}>
      <Table data-testid={testId}>
        <TableHeader>
          <TableRow>
            <TableHead>Campaign</TableHead>
            {showOwner && <TableHead>Owner</TableHead>}
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Steps</TableHead>
            <TableHead className="text-right">Contacts</TableHead>
            <TableHead className="text-right">Sent</TableHead>
            <TableHead className="text-right">Opened</TableHead>
            <TableHead className="text-right">Replied</TableHead>
            {actions && (
              <TableHead className="w-12">
                <span className="sr-only">Actions</span>
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading || !campaigns
            ? Array.from({ length: 4 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={index}>
                  <TableCell colSpan={showOwner ? 9 : 8}>
                    <Skeleton className="h-6 w-full" />
                  </TableCell>
                </TableRow>
              ))
            : campaigns.map((campaign) => (
                <TableRow key={campaign.id} data-testid="campaign-row" data-campaign-id={campaign.id}>
                  <TableCell className="max-w-72">
                    <Link
                      to={hrefFor(campaign)}
                      className="flex items-center gap-2 font-medium hover:underline"
                      data-testid="campaign-link"
                    >
                      <Send className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                      <span className="truncate">{campaign.name}</span>
                    </Link>
                    <p className="pl-6 text-xs text-muted-foreground">{whenText(campaign)}</p>
                  </TableCell>
                  {showOwner && (
                    <TableCell className="max-w-56 truncate text-sm" data-testid="campaign-owner">
                      {campaign.owner?.email ?? '—'}
                    </TableCell>
                  )}
                  <TableCell>
                    <CampaignStatusBadge status={campaign.status} archived={Boolean(campaign.archivedAt)} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatNumber(campaign.stepCount)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {campaign.contactCount ? formatNumber(campaign.contactCount) : '—'}
                  </TableCell>
                  <TableCell className="text-right tabular-nums" data-testid="campaign-sent">
                    {formatNumber(campaign.sent)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatNumber(campaign.opened)}
                    <span className="block text-xs text-muted-foreground">
                      {formatRate(campaign.opened, campaign.sent)}
                    </span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatNumber(campaign.replied)}
                    <span className="block text-xs text-muted-foreground">
                      {formatRate(campaign.replied, campaign.sent)}
                    </span>
                  </TableCell>
                  {actions && <TableCell>{actions(campaign)}</TableCell>}
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </div>
  );
}
