import type { ConnectionTestResult, PresentedCertificate, SenderAccount } from '@shared/sending';
import {
  ChevronDown,
  FlaskConical,
  Inbox,
  Mail,
  MoreHorizontal,
  Pause,
  Pencil,
  Play,
  PlugZap,
  Send,
  ShieldCheck,
  Trash2,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  useCheckSenderDomain,
  useSetSenderAccountPaused,
  useTestSenderAccount,
  useTrustSenderCertificate,
} from '../../api/sender-accounts';
import { capacityDisplay, imapDisplay, senderStatusDisplay } from '../../lib/sender-display';
import { CertificateDetails, ConnectionTestResultView, type MailServerKind } from './connection-test-result';
import { DomainCheckPanel } from './domain-check-panel';
import { DomainCheckPills } from './domain-check-pills';

const whenText = (iso: string) => formatRelative(iso);

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1.5">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="min-w-0 space-y-1.5 text-sm">{children}</dd>
    </div>
  );
}

/** One sender account: who it sends as, its state, today's sending, replies, domain, and its actions. */
export function SenderAccountItem({
  account,
  onEdit,
  onDelete,
  onSendTest,
}: {
  account: SenderAccount;
  onEdit: (account: SenderAccount) => void;
  onDelete: (account: SenderAccount) => void;
  onSendTest: (account: SenderAccount) => void;
}) {
  const testAccount = useTestSenderAccount();
  const checkDomain = useCheckSenderDomain();
  const setPaused = useSetSenderAccountPaused();
  const trustCertificate = useTrustSenderCertificate();
  const [testResult, setTestResult] = useState<ConnectionTestResult | null>(null);
  const [domainOpen, setDomainOpen] = useState(false);

  const status = senderStatusDisplay(account, whenText);
  const capacity = capacityDisplay(account);
  const imap = imapDisplay(account, whenText);
  const name = `${account.fromName} <${account.fromEmail}>`;
  const panelId = `sender-domain-${account.id}`;

  const runTest = () => {
    setTestResult(null);
    testAccount.mutate(account.id, {
      onSuccess: setTestResult,
      onError: (error) =>
        toast({
          title: 'The test could not run',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  };

  /** Pins the certificate the user just checked, then tests again with it. */
  const trust = (server: MailServerKind, certificate: PresentedCertificate | null) =>
    trustCertificate.mutate(
      { id: account.id, server, fingerprint: certificate?.fingerprint ?? null },
      {
        onSuccess: () => {
          toast({
            title: certificate ? 'Certificate trusted' : 'Certificate no longer trusted',
            description: certificate
              ? `${account.fromEmail} connects only while the server presents this certificate.`
              : `${account.fromEmail} accepts certificates from the usual authorities again.`,
          });
          if (certificate) runTest();
        },
        onError: (error) =>
          toast({
            title: 'Certificate not trusted',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );

  const runDomainCheck = () =>
    checkDomain.mutate(account.id, {
      onSuccess: () => setDomainOpen(true),
      onError: (error) =>
        toast({
          title: 'Domain not checked',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });

  const togglePaused = () => {
    const pausing = account.status !== 'paused' && account.status !== 'failing';
    setPaused.mutate(
      { id: account.id, paused: pausing },
      {
        onSuccess: (saved) =>
          toast({
            title: pausing ? 'Sender account paused' : 'Sender account resumed',
            description: pausing
              ? `${saved.fromEmail} sends nothing until you resume it.`
              : `${saved.fromEmail} is back in rotation.`,
          }),
        onError: (error) =>
          toast({
            title: pausing ? 'Not paused' : 'Not resumed',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );
  };
  const canResume = account.status !== 'active';

  return (
    <li
      className="space-y-4 rounded-lg border p-4"
      data-testid="sender-account"
      data-status={account.status}
      data-email={account.fromEmail}
      aria-label={name}
    >
      <div className="flex items-start gap-3">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-secondary text-secondary-foreground">
          {account.isDevMailbox ? (
            <FlaskConical className="size-5" aria-hidden="true" />
          ) : (
            <Mail className="size-5" aria-hidden="true" />
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-medium break-words">{account.fromName}</h3>
            <Badge variant={status.tone} data-testid="sender-status">
              {status.label}
            </Badge>
            {account.isDevMailbox && <Badge variant="outline">Test mailbox</Badge>}
          </div>
          <p className="text-sm text-muted-foreground">
            <span className="break-all">{account.fromEmail}</span>{' '}
            <span className="whitespace-nowrap text-muted-foreground/80">
              · via {account.isDevMailbox ? 'the development mailbox' : account.smtpHost}
            </span>
          </p>
        </div>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={`More actions for ${account.fromEmail}`}
              data-testid="sender-more"
            >
              <MoreHorizontal aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => onEdit(account)} data-testid="sender-edit">
              <Pencil aria-hidden="true" />
              Edit
            </DropdownMenuItem>
            <DropdownMenuItem
              onSelect={togglePaused}
              disabled={setPaused.isPending}
              data-testid="sender-toggle-pause"
            >
              {canResume ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
              {canResume ? 'Resume' : 'Pause'}
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              variant="destructive"
              onSelect={() => onDelete(account)}
              data-testid="sender-delete"
            >
              <Trash2 aria-hidden="true" />
              Delete
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>

      {status.detail && (
        <div
          className={cn(
            'flex flex-col gap-3 rounded-md border p-3 text-sm sm:flex-row sm:items-center sm:justify-between',
            account.status === 'failing' ? 'border-destructive/40 bg-destructive/5' : 'bg-muted/40',
          )}
          data-testid="sender-status-detail"
        >
          <p className={cn(account.status === 'failing' && 'text-destructive')}>
            {status.detail}
            {account.statusChangedAt && (
              <span className="sr-only"> ({formatDateTime(account.statusChangedAt)})</span>
            )}
          </p>
          <Button
            size="sm"
            variant="outline"
            className="shrink-0 self-start sm:self-center"
            onClick={togglePaused}
            disabled={setPaused.isPending}
            data-testid="sender-resume"
          >
            <Play aria-hidden="true" />
            {setPaused.isPending ? 'Resuming…' : 'Resume'}
          </Button>
        </div>
      )}

      <dl className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.35fr)]">
        <Stat label="Today">
          <Progress
            value={capacity.percent}
            aria-label={capacity.label}
            className={cn(capacity.full && '[&>[data-slot=progress-indicator]]:bg-warning')}
          />
          <p data-testid="sender-capacity">{capacity.label}</p>
          {capacity.warmupNote && <p className="text-xs text-muted-foreground">{capacity.warmupNote}</p>}
        </Stat>
        <Stat label="Replies">
          <p
            className={cn(
              'flex items-start gap-1.5',
              imap.state === 'error' ? 'text-destructive' : imap.state === 'off' && 'text-muted-foreground',
            )}
            data-testid="sender-imap"
            data-state={imap.state}
          >
            <Inbox className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-words">{imap.text}</span>
          </p>
          {account.imapEnabled && !account.isDevMailbox && (
            <p
              className={cn(
                'text-xs',
                account.sentFolderError ? 'text-destructive' : 'text-muted-foreground',
              )}
              data-testid="sender-sent-folder"
            >
              {!account.sentFolderEnabled
                ? 'Sent emails are not copied to your Sent folder.'
                : account.sentFolderError
                  ? `Sent folder: ${account.sentFolderError}`
                  : account.sentFolderAppendedAt
                    ? `Sent emails are copied to your Sent folder (last ${whenText(account.sentFolderAppendedAt)}).`
                    : 'Sent emails will be copied to your Sent folder.'}
            </p>
          )}
        </Stat>
        <Stat label="Domain">
          <DomainCheckPills check={account.domainCheck} />
        </Stat>
      </dl>

      <div className="flex flex-col gap-2 min-[480px]:flex-row min-[480px]:flex-wrap">
        <Button
          size="sm"
          variant="outline"
          onClick={runTest}
          disabled={testAccount.isPending}
          data-testid="sender-test"
        >
          <PlugZap aria-hidden="true" />
          {testAccount.isPending ? 'Testing…' : 'Test connection'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => onSendTest(account)}
          data-testid="sender-send-test"
        >
          <Send aria-hidden="true" />
          Send test email
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={runDomainCheck}
          disabled={checkDomain.isPending}
          data-testid="sender-check-domain"
        >
          <ShieldCheck aria-hidden="true" />
          {checkDomain.isPending ? 'Checking…' : 'Check domain'}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => setDomainOpen((open) => !open)}
          aria-expanded={domainOpen}
          aria-controls={panelId}
          data-testid="sender-domain-toggle"
        >
          Domain details
          <ChevronDown
            className={cn('transition-transform', domainOpen && 'rotate-180')}
            aria-hidden="true"
          />
        </Button>
      </div>

      {(['smtp', 'imap'] as const).map((server) => {
        const pinned = server === 'smtp' ? account.smtpTrustedCertificate : account.imapTrustedCertificate;
        if (!pinned) return null;
        return (
          <div
            key={server}
            className="space-y-2 rounded-md border bg-muted/40 p-3"
            data-testid={`sender-trusted-certificate-${server}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="flex items-center gap-1.5 text-sm font-medium">
                <ShieldCheck className="size-4 shrink-0" aria-hidden="true" />
                Trusted {server === 'smtp' ? 'SMTP' : 'IMAP'} certificate
              </p>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => trust(server, null)}
                disabled={trustCertificate.isPending}
                data-testid={`sender-forget-certificate-${server}`}
              >
                Stop trusting
              </Button>
            </div>
            <CertificateDetails certificate={pinned} />
          </div>
        );
      })}

      {testResult && (
        <ConnectionTestResultView
          result={testResult}
          onTrust={(server, certificate) => trust(server, certificate)}
          trusting={trustCertificate.isPending}
        />
      )}

      {domainOpen && (
        <div id={panelId} className="rounded-md border p-4">
          <DomainCheckPanel
            check={account.domainCheck}
            onCheck={runDomainCheck}
            checking={checkDomain.isPending}
          />
        </div>
      )}
    </li>
  );
}
