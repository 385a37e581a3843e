import type { ContactList } from '@shared/lists';
import type { SenderAccount } from '@shared/sending';
import { useQuery } from '@tanstack/react-query';
import {
  ArrowRight,
  Check,
  FileUp,
  FlaskConical,
  type LucideIcon,
  Mailbox,
  Plus,
  Rocket,
  Search,
  Settings,
  Users,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { getPlanLimitMessage } from '@/lib/plan-limit';
import { cn } from '@/lib/utils';
import {
  useAddDevMailboxAccount,
  useCheckSenderDomain,
  useSenderAccounts,
  useSenderPresets,
} from '../api/sender-accounts';
import { DomainCheckPanel } from '../components/sender-accounts/domain-check-panel';
import { DomainCheckPills } from '../components/sender-accounts/domain-check-pills';
import { SenderAccountForm } from '../components/sender-accounts/sender-account-form';
import { senderStatusDisplay } from '../lib/sender-display';
import { isDevMailboxPreset } from '../lib/sender-form';
import { setupProgress } from '../lib/setup-progress';

function StepCard({
  number,
  title,
  description,
  done,
  icon: Icon,
  testId,
  children,
}: {
  number: number;
  title: string;
  description: string;
  done: boolean | null;
  icon: LucideIcon;
  testId: string;
  children: ReactNode;
}) {
  return (
    <li data-testid={testId} data-done={done === null ? undefined : String(done)}>
      <Card className="gap-5">
        <CardHeader className="grid-cols-[auto_1fr] gap-x-4">
          <span
            className={cn(
              'row-span-2 flex size-9 items-center justify-center rounded-full border-2 text-sm font-semibold',
              done ? 'border-success bg-success text-white' : 'border-primary/30 text-primary',
            )}
            aria-hidden="true"
          >
            {done ? <Check className="size-4" /> : number}
          </span>
          <CardTitle className="flex flex-wrap items-center gap-2">
            <h2 className="flex items-center gap-2 text-lg">
              <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
              <span>
                <span className="sr-only">Step {number}: </span>
                {title}
              </span>
            </h2>
            {done !== null && (
              <Badge variant={done ? 'success' : 'outline'} data-testid={`${testId}-state`}>
                {done ? 'Done' : 'To do'}
              </Badge>
            )}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </li>
  );
}

function ConnectedAccounts({ accounts }: { accounts: SenderAccount[] }) {
  return (
    <ul className="divide-y rounded-md border" aria-label="Connected sender accounts">
      {accounts.map((account) => {
        const status = senderStatusDisplay(account, () => '');
        return (
          <li
            key={account.id}
            className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
            data-testid="launch-sender-account"
          >
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2 font-medium">
                <span className="break-words">{account.fromName}</span>
                <Badge variant={status.tone}>{status.label}</Badge>
                {account.isDevMailbox && <Badge variant="outline">Test mailbox</Badge>}
              </p>
              <p className="text-sm break-all text-muted-foreground">{account.fromEmail}</p>
            </div>
            {!account.isDevMailbox && (
              <div className="sm:max-w-64">
                <DomainCheckPills check={account.domainCheck} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Step 1: the inline form (tested live before saving), or the one-click test mailbox; then the domain. */
function ConnectStep({ defaultFromName }: { defaultFromName: string }) {
  const accounts = useSenderAccounts();
  const presets = useSenderPresets();
  const addDevMailbox = useAddDevMailboxAccount();
  const checkDomain = useCheckSenderDomain();
  const [addingAnother, setAddingAnother] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);

  const list = accounts.data ?? [];
  const devMailboxOffered = presets.data?.some(isDevMailboxPreset) ?? false;
  // The domain shown in full: the account just added, else the first real mailbox.
  const focus =
    list.find((account) => account.id === focusId) ?? list.find((account) => !account.isDevMailbox) ?? null;

  const runDomainCheck = (id: string) =>
    checkDomain.mutate(id, {
      onError: (error) =>
        toast({
          title: 'Domain not checked',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });

  const saved = (account: SenderAccount) => {
    setAddingAnother(false);
    setFocusId(account.id);
    // Saving checks the domain when it can; ask again only when that lookup did not happen.
    if (!account.isDevMailbox && !account.domainCheck) runDomainCheck(account.id);
  };

  const connectDevMailbox = () =>
    addDevMailbox.mutate(undefined, {
      onSuccess: (account) => {
        toast({ title: 'Test mailbox connected', description: `${account.fromName} <${account.fromEmail}>` });
        saved(account);
      },
      onError: (error) =>
        toast({
          title: 'Test mailbox not added',
          description: getPlanLimitMessage(error) ?? getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });

  if (accounts.isPending)
    return <Skeleton className="h-32" role="status" aria-label="Loading sender accounts" />;
  if (accounts.isError) {
    return (
      <QueryError
        title="Sender accounts could not be loaded"
        error={accounts.error}
        onRetry={() => accounts.refetch()}
      />
    );
  }

  const showForm = list.length === 0 || addingAnother;
  return (
    <div className="space-y-6">
      {list.length > 0 && <ConnectedAccounts accounts={list} />}

      {focus && (
        <div className="rounded-md border p-4">
          <DomainCheckPanel
            check={focus.domainCheck}
            onCheck={() => runDomainCheck(focus.id)}
            checking={checkDomain.isPending}
          />
        </div>
      )}

      {list.length > 0 && !addingAnother && (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setAddingAnother(true)} data-testid="launch-add-another">
            <Plus aria-hidden="true" />
            Connect another mailbox
          </Button>
          <Button asChild variant="ghost">
            <Link to="/settings#sender-accounts">
              <Settings aria-hidden="true" />
              Manage sender accounts
            </Link>
          </Button>
        </div>
      )}

      {showForm && devMailboxOffered && !list.some((account) => account.isDevMailbox) && (
        <Alert data-testid="launch-dev-mailbox-offer">
          <FlaskConical aria-hidden="true" />
          <AlertTitle>Just trying Tambari?</AlertTitle>
          <AlertDescription className="flex flex-col items-start gap-3">
            <span>
              Use the built-in test mailbox: it catches every email instead of delivering it, so you can run a
              real campaign and read what was sent, without a mail server of your own.
            </span>
            <Button
              size="sm"
              onClick={connectDevMailbox}
              disabled={addDevMailbox.isPending}
              data-testid="launch-use-dev-mailbox"
            >
              {addDevMailbox.isPending ? 'Adding…' : 'Use the Tambari test mailbox'}
            </Button>
          </AlertDescription>
        </Alert>
      )}

      {showForm && (
        <div className={cn(list.length > 0 && 'rounded-md border p-4 sm:p-6')}>
          <SenderAccountForm
            defaultFromName={defaultFromName}
            onSaved={saved}
            onCancel={addingAnother ? () => setAddingAnother(false) : undefined}
            onUseDevMailbox={devMailboxOffered ? connectDevMailbox : undefined}
            devMailboxPending={addDevMailbox.isPending}
            submitLabel="Save and check my domain"
          />
        </div>
      )}
    </div>
  );
}

function ContactsStep({ lists }: { lists: ContactList[] | undefined }) {
  const contacts = lists?.reduce((sum, list) => sum + list.contactCount, 0) ?? 0;
  return (
    <div className="space-y-4">
      {lists && (
        <p className="text-sm" data-testid="launch-list-count">
          {lists.length === 0
            ? 'You have no contact lists yet.'
            : `You have ${formatNumber(lists.length)} ${lists.length === 1 ? 'list' : 'lists'} with ${formatNumber(contacts)} ${contacts === 1 ? 'contact' : 'contacts'}.`}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <Link to="/lead-discovery">
            <Search aria-hidden="true" />
            Browse contacts
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/lead-discovery/import">
            <FileUp aria-hidden="true" />
            Import a CSV list
          </Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * Quick setup (`/launch`): connect a mail server, choose contacts, create the first campaign.
 * Each step's tick comes from real data: a sender account, a contact list.
 */
export default function LaunchPage() {
  const { user } = useAuth();
  const accounts = useSenderAccounts();
  const lists = useQuery<{ lists: ContactList[] }>({ queryKey: ['/api/lists'], staleTime: 30_000 });

  // Archived campaigns count too: the user did create one.
  const campaigns = useQuery<unknown[]>({ queryKey: ['/api/campaigns?archived=true'], staleTime: 0 });
  const activeCampaigns = useQuery<unknown[]>({ queryKey: ['/api/campaigns'], staleTime: 0 });

  const connected = accounts.data ? accounts.data.length > 0 : null;
  const hasLists = lists.data ? lists.data.lists.length > 0 : null;
  const hasCampaign =
    activeCampaigns.data && campaigns.data ? activeCampaigns.data.length + campaigns.data.length > 0 : null;
  const progress = setupProgress({ connected, hasLists, hasCampaign });
  const defaultFromName = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '';

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6" data-testid="launch-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Quick setup</h1>
        <p className="text-muted-foreground">
          Connect your mail server, choose contacts, and create your first campaign.
          {progress && (
            <span className="ml-1 font-medium text-foreground" data-testid="launch-progress">
              {progress}
            </span>
          )}
        </p>
      </header>

      <ol className="space-y-6">
        <StepCard
          number={1}
          title="Connect your mail server"
          description="Campaigns go out from your own mailbox. Pick your provider, test the connection, then see whether your domain's SPF, DKIM and DMARC are right."
          done={connected}
          icon={Mailbox}
          testId="launch-step-connect"
        >
          <ConnectStep defaultFromName={defaultFromName} />
        </StepCard>

        <StepCard
          number={2}
          title="Choose contacts"
          description="Pick verified businesses by country, city and category, or import your own CSV list."
          done={hasLists}
          icon={Users}
          testId="launch-step-contacts"
        >
          {lists.isError ? (
            <QueryError
              title="Your lists could not be loaded"
              error={lists.error}
              onRetry={() => lists.refetch()}
            />
          ) : (
            <ContactsStep lists={lists.data?.lists} />
          )}
        </StepCard>

        <StepCard
          number={3}
          title="Create your first campaign"
          description="Write a first email and follow-ups, choose the sending window, and launch."
          done={hasCampaign}
          icon={Rocket}
          testId="launch-step-campaign"
        >
          <div className="space-y-3">
            {connected === false && (
              <p className="text-sm text-muted-foreground">
                Connect a mail server first: campaigns send through it.
              </p>
            )}
            <Button asChild variant={connected && hasLists ? 'default' : 'outline'}>
              <Link to="/campaigns" data-testid="launch-create-campaign">
                Create campaign
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </StepCard>
      </ol>
    </div>
  );
}
