import type { ContactList } from '@shared/lists';
import type { SenderAccount } from '@shared/sending';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ListOrdered, Pause, Play, Settings2, ShieldAlert, Square } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { usePageMeta } from '@/hooks/use-page-meta';
import { getErrorStatus } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { useCampaign, useCampaignReplies, useCampaignStats } from '../api/campaigns';
import { useAdminCampaignFallback } from '../components/admin-fallback';
import { CampaignActionsMenu, useRunCampaignAction } from '../components/campaign-actions';
import { CampaignFormDialog } from '../components/campaign-form/campaign-form-dialog';
import { CampaignProgressCard, CampaignSettingsCard, StepStatsTable } from '../components/campaign-overview';
import { CampaignStatusBadge } from '../components/campaign-status-badge';
import { ContactsPanel } from '../components/contacts-panel';
import { PrelaunchPanel } from '../components/prelaunch-panel';
import { RepliesPanel } from '../components/replies-panel';
import { SenderHealthAlert } from '../components/sender-health-alert';
import { availableActions } from '../lib/campaign-display';

const PAGE_TABS = ['overview', 'contacts', 'replies'] as const;
type PageTab = (typeof PAGE_TABS)[number];

/** /campaigns/:id — progress, numbers per step and variant, contacts, replies, and the lifecycle actions. */
export default function CampaignPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get('tab');
  const tab: PageTab = (PAGE_TABS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as PageTab)
    : 'overview';
  const campaign = useCampaign(id);
  const data = campaign.data;
  const toAdmin = useAdminCampaignFallback(campaign.error, `/admin/campaigns/${id}`);
  const launched = Boolean(data && data.status !== 'draft');
  const stats = useCampaignStats(id, data?.status === 'active', launched);
  const replies = useCampaignReplies(id, launched);
  const senders = useQuery<SenderAccount[]>({ queryKey: ['/api/sender-accounts'], staleTime: 60_000 });
  const lists = useQuery<{ lists: ContactList[] }>({ queryKey: ['/api/lists'], staleTime: 60_000 });
  const listNames = useMemo(
    () => new Map((lists.data?.lists ?? []).map((list) => [list.id, list.name] as const)),
    [lists.data],
  );
  const { run, pending } = useRunCampaignAction();
  const [editing, setEditing] = useState(false);
  const [confirmStop, setConfirmStop] = useState(false);

  usePageMeta({
    title: `${data?.name ?? 'Campaign'} | Tambari`,
    description: 'Campaign progress, contacts and replies.',
    robots: 'noindex, nofollow',
  });

  if (toAdmin) return null;
  if (campaign.isError && !data) {
    const notFound = getErrorStatus(campaign.error) === 404;
    return (
      <div className="mx-auto w-full max-w-3xl space-y-4">
        <Button variant="ghost" size="sm" className="-ml-2" asChild>
          <Link to="/campaigns">
            <ArrowLeft aria-hidden="true" />
            Campaigns
          </Link>
        </Button>
        <QueryError
          title={notFound ? 'This campaign does not exist' : 'The campaign could not be loaded'}
          error={campaign.error}
          onRetry={notFound ? undefined : () => campaign.refetch()}
          testId="campaign-error"
        />
      </div>
    );
  }

  const allowed = data ? availableActions(data.status, Boolean(data.archivedAt)) : null;
  const setTab = (next: string) =>
    setSearchParams(
      (params) => {
        const copy = new URLSearchParams(params);
        if (next === 'overview') copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="campaign-page">
      <div className="space-y-3">
        <Button variant="ghost" size="sm" className="-ml-2" asChild>
          <Link to="/campaigns">
            <ArrowLeft aria-hidden="true" />
            Campaigns
          </Link>
        </Button>
        <header className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
          <div className="min-w-0 space-y-2">
            {data ? (
              <h1
                className="break-words text-2xl font-semibold tracking-tight"
                data-testid="campaign-name-heading"
              >
                {data.name}
              </h1>
            ) : (
              <Skeleton className="h-8 w-72" />
            )}
            {data && (
              <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                <CampaignStatusBadge status={data.status} archived={Boolean(data.archivedAt)} />
                <span>
                  {data.steps.length} {data.steps.length === 1 ? 'step' : 'steps'}
                </span>
                {launched && (
                  <>
                    <span aria-hidden="true">·</span>
                    <span data-testid="campaign-contact-count">
                      {formatNumber(data.contactCount)} {data.contactCount === 1 ? 'contact' : 'contacts'}
                    </span>
                  </>
                )}
              </div>
            )}
          </div>
          {data && allowed && (
            <div className="flex flex-wrap items-center gap-2">
              <Button variant="outline" asChild>
                <Link to={`/campaigns/${data.id}/steps`} data-testid="campaign-steps-link">
                  <ListOrdered aria-hidden="true" />
                  {allowed.edit ? 'Edit emails' : 'View emails'}
                </Link>
              </Button>
              {allowed.edit && (
                <Button
                  variant="outline"
                  onClick={() => setEditing(true)}
                  data-testid="campaign-edit-settings"
                >
                  <Settings2 aria-hidden="true" />
                  Settings
                </Button>
              )}
              {allowed.pause && (
                <Button
                  variant="outline"
                  disabled={pending}
                  onClick={() => void run(data.id, data.name, 'pause')}
                  data-testid="campaign-pause"
                >
                  <Pause aria-hidden="true" />
                  Pause
                </Button>
              )}
              {allowed.resume && (
                <Button
                  disabled={pending}
                  onClick={() => void run(data.id, data.name, 'resume')}
                  data-testid="campaign-resume"
                >
                  <Play aria-hidden="true" />
                  Resume
                </Button>
              )}
              {allowed.stop && (
                <Button
                  variant="outline"
                  className="text-destructive"
                  disabled={pending}
                  onClick={() => setConfirmStop(true)}
                  data-testid="campaign-stop"
                >
                  <Square aria-hidden="true" />
                  Stop
                </Button>
              )}
              <CampaignActionsMenu
                campaign={data}
                triggerVariant="outline"
                onDeleted={() => navigate('/campaigns?tab=drafts', { replace: true })}
              />
            </div>
          )}
        </header>
      </div>

      {!data ? (
        <div className="space-y-4">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : (
        <>
          {data.status === 'draft' && <PrelaunchPanel campaignId={data.id} scheduledAt={data.scheduledAt} />}
          {data.status === 'paused' && data.pausedReason && (
            <Alert variant="destructive" data-testid="campaign-paused-reason">
              <ShieldAlert aria-hidden="true" />
              <AlertTitle>This campaign was paused for you</AlertTitle>
              <AlertDescription>
                <p>{data.pausedReason}</p>
                <p>Queued emails wait; nothing is lost.</p>
              </AlertDescription>
            </Alert>
          )}
          {['active', 'scheduled', 'paused'].includes(data.status) && (
            <SenderHealthAlert senderAccountIds={data.senderAccountIds} senderAccounts={senders.data} />
          )}
          <Tabs value={tab} onValueChange={setTab} className="gap-4">
            <TabsList>
              <TabsTrigger value="overview" data-testid="campaign-tab-overview">
                Overview
              </TabsTrigger>
              <TabsTrigger value="contacts" data-testid="campaign-tab-contacts">
                Contacts
              </TabsTrigger>
              <TabsTrigger value="replies" data-testid="campaign-tab-replies">
                Replies
                {/* The same items the tab lists: replies, out-of-office answers and unsubscribe requests. */}
                {replies.data && replies.data.length > 0 && (
                  <span
                    className="ml-1 rounded-full bg-muted px-1.5 text-xs tabular-nums text-muted-foreground"
                    data-testid="campaign-replies-count"
                  >
                    {formatNumber(replies.data.length)}
                  </span>
                )}
              </TabsTrigger>
            </TabsList>
            <TabsContent value="overview" className="space-y-6">
              {stats.isError && (
                <QueryError
                  title="The numbers could not be loaded"
                  error={stats.error}
                  onRetry={() => stats.refetch()}
                />
              )}
              {launched && (
                <CampaignProgressCard campaign={data} stats={stats.data} loading={stats.isPending} />
              )}
              <StepStatsTable campaign={data} stats={stats.data} />
              <CampaignSettingsCard campaign={data} senderAccounts={senders.data} listNames={listNames} />
            </TabsContent>
            <TabsContent value="contacts">
              <ContactsPanel campaignId={data.id} timeZone={data.timeZone} stats={stats.data} />
            </TabsContent>
            <TabsContent value="replies">
              <RepliesPanel campaignId={data.id} timeZone={data.timeZone} />
            </TabsContent>
          </Tabs>

          <CampaignFormDialog open={editing} onOpenChange={setEditing} campaign={data} />
          <ConfirmDialog
            open={confirmStop}
            onOpenChange={setConfirmStop}
            title="Stop this campaign?"
            description={
              <>
                “{data.name}” sends nothing more: queued emails are cancelled and every contact leaves the
                sequence. A stopped campaign cannot be resumed; duplicate it to start again.
              </>
            }
            confirmLabel="Stop campaign"
            pendingLabel="Stopping…"
            destructive
            pending={pending}
            onConfirm={() => void run(data.id, data.name, 'stop', () => setConfirmStop(false))}
            testId="confirm-stop"
          />
        </>
      )}
    </div>
  );
}
