import { FileText, Plus, Send } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { usePageMeta } from '@/hooks/use-page-meta';
import { formatNumber } from '@/lib/format';
import { useCampaigns, useTemplate } from '../api/campaigns';
import { CampaignActionsMenu } from '../components/campaign-actions';
import { CampaignFormDialog } from '../components/campaign-form/campaign-form-dialog';
import { CampaignsTable } from '../components/campaigns-table';
import {
  CAMPAIGN_TAB_LABELS,
  CAMPAIGN_TABS,
  type CampaignTab,
  filterByTab,
  readCampaignTab,
} from '../lib/campaign-display';

const EMPTY_TEXT: Record<CampaignTab, { title: string; text: string }> = {
  active: {
    title: 'No campaign is running',
    text: 'Create a campaign: pick an audience, write a short sequence of emails, and launch it.',
  },
  drafts: { title: 'No drafts', text: 'Campaigns you are still writing wait here until you launch them.' },
  completed: {
    title: 'Nothing finished yet',
    text: 'Campaigns that ran their course or were stopped land here.',
  },
  archived: { title: 'The archive is empty', text: 'Archive finished campaigns to keep this list tidy.' },
};

function EmptyState({ tab, onCreate }: { tab: CampaignTab; onCreate: () => void }) {
  const copy = EMPTY_TEXT[tab];
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-6 py-14 text-center"
      data-testid="campaigns-empty"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
        <Send className="size-6" aria-hidden="true" />
      </span>
      <h2 className="text-lg font-semibold">{copy.title}</h2>
      <p className="max-w-md text-sm text-muted-foreground">{copy.text}</p>
      {(tab === 'active' || tab === 'drafts') && (
        <div className="flex flex-wrap justify-center gap-2 pt-2">
          <Button onClick={onCreate}>
            <Plus aria-hidden="true" />
            New campaign
          </Button>
          <Button variant="outline" asChild>
            <Link to="/templates">
              <FileText aria-hidden="true" />
              Start from a template
            </Link>
          </Button>
        </div>
      )}
    </div>
  );
}

/** /campaigns: the user's campaigns by tab, and the create flow (also reached with ?template=<id>). */
export default function CampaignsPage() {
  usePageMeta({
    title: 'Campaigns | Tambari',
    description: 'Multi-step cold email campaigns with personalisation, A/B tests and sender rotation.',
    robots: 'noindex, nofollow',
  });
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = readCampaignTab(searchParams.get('tab'));
  const templateId = searchParams.get('template');
  const template = useTemplate(templateId);
  const [creating, setCreating] = useState(false);
  const formOpen = creating || Boolean(templateId);

  const current = useCampaigns({ archived: false });
  const archived = useCampaigns({ archived: true });
  const source = tab === 'archived' ? archived : current;
  const rows = source.data ? filterByTab(source.data, tab) : undefined;

  const counts: Partial<Record<CampaignTab, number>> = {};
  if (current.data) {
    for (const t of ['active', 'drafts', 'completed'] as const)
      counts[t] = filterByTab(current.data, t).length;
  }
  if (archived.data) counts.archived = filterByTab(archived.data, 'archived').length;

  const setTab = (next: string) =>
    setSearchParams(
      (params) => {
        const copy = new URLSearchParams(params);
        if (next === 'active') copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );

  const closeForm = (open: boolean) => {
    if (open) return;
    setCreating(false);
    if (templateId) {
      setSearchParams(
        (params) => {
          const copy = new URLSearchParams(params);
          copy.delete('template');
          return copy;
        },
        { replace: true },
      );
    }
  };

  // Wait for the template before the form opens, so its name and note are there from the start.
  const templateReady = !templateId || !template.isPending;

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="campaigns-page">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Campaigns</h1>
          <p className="text-muted-foreground">
            Multi-step email sequences that stop for each contact the moment they reply.
          </p>
        </div>
        <Button onClick={() => setCreating(true)} data-testid="new-campaign">
          <Plus aria-hidden="true" />
          New campaign
        </Button>
      </header>

      {templateId && template.isError && (
        <QueryError
          title="The template could not be loaded"
          error={template.error}
          testId="campaign-template-error"
        />
      )}

      <Tabs value={tab} onValueChange={setTab} className="gap-4">
        <div className="overflow-x-auto">
          <TabsList>
            {CAMPAIGN_TABS.map((t) => (
              <TabsTrigger key={t} value={t} data-testid={`campaigns-tab-${t}`}>
                {CAMPAIGN_TAB_LABELS[t]}
                {counts[t] !== undefined && counts[t] > 0 && (
                  <span className="ml-1 rounded-full bg-muted px-1.5 text-xs tabular-nums text-muted-foreground">
                    {formatNumber(counts[t])}
                  </span>
                )}
              </TabsTrigger>
            ))}
          </TabsList>
        </div>
      </Tabs>

      {source.isError && !source.data ? (
        <QueryError
          title="Your campaigns could not be loaded"
          error={source.error}
          onRetry={() => source.refetch()}
          testId="campaigns-error"
        />
      ) : (
        <div className="overflow-x-auto">
          <CampaignsTable
            campaigns={rows}
            loading={source.isPending}
            stale={source.isPlaceholderData}
            hrefFor={(campaign) => `/campaigns/${campaign.id}`}
            actions={(campaign) => <CampaignActionsMenu campaign={campaign} />}
            empty={<EmptyState tab={tab} onCreate={() => setCreating(true)} />}
          />
        </div>
      )}

      <CampaignFormDialog
        open={formOpen && templateReady}
        onOpenChange={closeForm}
        template={template.data ?? null}
        initialName={template.data?.name}
      />
    </div>
  );
}
