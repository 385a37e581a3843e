import { CAMPAIGN_STATUSES, type CampaignStatus } from '@shared/sending';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { CursorPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { usePageMeta } from '@/hooks/use-page-meta';
import { rowRange } from '@/lib/cursor-pages';
import { type AdminCampaignListItem, useAdminCampaigns } from '../api/campaigns';
import { AdminCampaignActions } from '../components/admin-campaign-actions';
import { CampaignsTable } from '../components/campaigns-table';
import { CAMPAIGN_STATUS_LABELS } from '../lib/campaign-display';

const PAGE_SIZE = 50;

const ownerEmail = (campaign: AdminCampaignListItem) => campaign.owner.email;

/** /admin/campaigns: every user's campaigns, searchable, with pause and stop. */
export default function AdminCampaignsPage() {
  usePageMeta({
    title: 'Campaigns | Tambari Admin',
    description: 'All campaigns.',
    robots: 'noindex, nofollow',
  });
  const [searchParams, setSearchParams] = useSearchParams();
  const statusParam = searchParams.get('status');
  const status = (CAMPAIGN_STATUSES as readonly string[]).includes(statusParam ?? '')
    ? (statusParam as CampaignStatus)
    : undefined;
  const userId = searchParams.get('userId') ?? undefined;
  const [search, setSearch] = useState(searchParams.get('q') ?? '');
  const q = useDebouncedValue(search, 300).trim();
  const pager = useCursorPages(`${status ?? ''}|${q}|${userId ?? ''}`);
  const campaigns = useAdminCampaigns({ q, status, userId, cursor: pager.cursor });
  const items = campaigns.data?.items;
  const range = rowRange(pager.pages, PAGE_SIZE, items?.length ?? 0);

  const setStatus = (next: string) =>
    setSearchParams(
      (params) => {
        const copy = new URLSearchParams(params);
        if (next === 'all') copy.delete('status');
        else copy.set('status', next);
        return copy;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-campaigns-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Campaigns</h1>
        <p className="text-muted-foreground">
          Every user's campaigns. Pausing or stopping one is written to the audit log.
        </p>
      </header>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>All campaigns</h2>
          </CardTitle>
          <CardDescription>Search by campaign name or owner email.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex flex-col gap-3 sm:flex-row">
            <SearchInput
              className="flex-1"
              value={search}
              onChange={setSearch}
              placeholder="Campaign name or owner email"
              aria-label="Search campaigns"
              maxLength={100}
              data-testid="admin-campaigns-search"
            />
            <Select value={status ?? 'all'} onValueChange={setStatus}>
              <SelectTrigger
                className="w-full sm:w-48"
                aria-label="Filter by status"
                data-testid="admin-campaigns-status"
              >
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">All statuses</SelectItem>
                {CAMPAIGN_STATUSES.map((s) => (
                  <SelectItem key={s} value={s}>
                    {CAMPAIGN_STATUS_LABELS[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {campaigns.isError && !campaigns.data ? (
            <QueryError
              title="Campaigns could not be loaded"
              error={campaigns.error}
              onRetry={() => campaigns.refetch()}
              testId="admin-campaigns-error"
            />
          ) : (
            <>
              <div className="overflow-x-auto">
                <CampaignsTable
                  campaigns={items}
                  loading={campaigns.isPending}
                  stale={campaigns.isPlaceholderData}
                  showOwner
                  hrefFor={(campaign) => `/admin/campaigns/${campaign.id}`}
                  actions={(campaign) => (
                    <AdminCampaignActions campaign={campaign} ownerEmail={ownerEmail(campaign)} compact />
                  )}
                  testId="admin-campaigns-table"
                  empty={
                    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed py-12 text-center text-sm text-muted-foreground">
                      <Send className="size-8" aria-hidden="true" />
                      {q || status ? 'No campaign matches.' : 'No user has created a campaign yet.'}
                    </div>
                  }
                />
              </div>
              {items && (items.length > 0 || pager.hasPrevious) && (
                <CursorPagination
                  from={range.from}
                  to={range.to}
                  hasPrevious={pager.hasPrevious}
                  hasNext={Boolean(campaigns.data?.nextCursor)}
                  onPrevious={pager.goPrevious}
                  onNext={() => pager.goNext(campaigns.data?.nextCursor)}
                  busy={campaigns.isPlaceholderData}
                  noun="campaigns"
                  testId="admin-campaigns-pagination"
                />
              )}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
