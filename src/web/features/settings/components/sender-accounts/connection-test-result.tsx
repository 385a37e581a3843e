import type { ConnectionTestResult, PresentedCertificate, ServerTestResult } from '@shared/sending';
import { CircleCheck, CircleMinus, CircleX, ShieldAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';

export type MailServerKind = 'smtp' | 'imap';

const PROBLEM_TITLES: Record<PresentedCertificate['problem'], string> = {
  self_signed: 'Self-signed certificate',
  unknown_ca: 'Certificate from an unknown authority',
  expired: 'Expired certificate',
  not_yet_valid: 'Certificate not valid yet',
  name_mismatch: 'Certificate for another host name',
  changed: 'The certificate changed',
  other: 'Certificate not accepted',
};

/** The certificate a server presented, for the owner to check before trusting it. */
export function CertificateDetails({
  certificate,
}: {
  certificate: Pick<PresentedCertificate, 'fingerprint' | 'subject' | 'issuer' | 'validFrom' | 'validTo'>;
}) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      <dt className="text-muted-foreground">SHA-256</dt>
      <dd className="font-mono break-all" data-testid="certificate-fingerprint">
        {certificate.fingerprint}
      </dd>
      <dt className="text-muted-foreground">Subject</dt>
      <dd className="break-words" data-testid="certificate-subject">
        {certificate.subject}
      </dd>
      <dt className="text-muted-foreground">Issuer</dt>
      <dd className="break-words">{certificate.issuer}</dd>
      <dt className="text-muted-foreground">Valid</dt>
      <dd>
        {formatDateTime(certificate.validFrom)} – {formatDateTime(certificate.validTo)}
      </dd>
    </dl>
  );
}

function CertificatePrompt({
  kind,
  certificate,
  onTrust,
  trusting,
}: {
  kind: MailServerKind;
  certificate: PresentedCertificate;
  onTrust?: (kind: MailServerKind, certificate: PresentedCertificate) => void;
  trusting?: boolean;
}) {
  // An expired certificate stays refused even when pinned: trusting it would not help.
  const canTrust = onTrust && certificate.problem !== 'expired' && certificate.problem !== 'not_yet_valid';
  return (
    <div
      className="mt-2 space-y-2 rounded-md border border-warning/50 bg-warning/5 p-3"
      data-testid={`certificate-prompt-${kind}`}
      data-problem={certificate.problem}
    >
      <p className="flex items-center gap-1.5 text-sm font-medium">
        <ShieldAlert className="size-4 shrink-0 text-warning" aria-hidden="true" />
        {PROBLEM_TITLES[certificate.problem]}
      </p>
      <CertificateDetails certificate={certificate} />
      {canTrust && (
        <>
          <p className="text-xs text-muted-foreground">
            Trust it only if this is your own mail server and the fingerprint matches the one your server
            shows (for example <code>openssl x509 -noout -fingerprint -sha256</code> on the server). From then
            on we connect only while the server presents exactly this certificate.
          </p>
          <Button
            type="button"
            size="sm"
            variant="outline"
            onClick={() => onTrust(kind, certificate)}
            disabled={trusting}
            data-testid={`trust-certificate-${kind}`}
          >
            {trusting ? 'Trusting…' : 'Trust this certificate'}
          </Button>
        </>
      )}
    </div>
  );
}

function ResultRow({
  name,
  kind,
  result,
  testId,
  onTrust,
  trusting,
}: {
  name: string;
  kind: MailServerKind;
  result: ServerTestResult | null;
  testId: string;
  onTrust?: (kind: MailServerKind, certificate: PresentedCertificate) => void;
  trusting?: boolean;
}) {
  const Icon = !result ? CircleMinus : result.ok ? CircleCheck : CircleX;
  return (
    <li
      className="flex items-start gap-2"
      data-testid={testId}
      data-ok={result ? String(result.ok) : undefined}
    >
      <Icon
        className={cn(
          'mt-0.5 size-4 shrink-0',
          !result ? 'text-muted-foreground' : result.ok ? 'text-success' : 'text-destructive',
        )}
        aria-hidden="true"
      />
      <div className="min-w-0 flex-1">
        <p className="text-sm break-words">
          <span className="font-medium">
            {name}: {!result ? 'not set up' : result.ok ? 'connected' : 'failed'}
          </span>
          {result && <span className="text-muted-foreground"> — {result.message}</span>}
        </p>
        {result?.certificate && (
          <CertificatePrompt
            kind={kind}
            certificate={result.certificate}
            onTrust={onTrust}
            trusting={trusting}
          />
        )}
      </div>
    </li>
  );
}

/**
 * Both halves of a connection test: sending (SMTP) and, when set up, reading replies (IMAP). A half that
 * failed on its certificate shows the certificate and, with `onTrust`, offers to trust it.
 */
export function ConnectionTestResultView({
  result,
  className,
  onTrust,
  trusting,
}: {
  result: ConnectionTestResult;
  className?: string;
  onTrust?: (kind: MailServerKind, certificate: PresentedCertificate) => void;
  trusting?: boolean;
}) {
  const ok = result.smtp.ok && (result.imap?.ok ?? true);
  return (
    <div
      role="status"
      className={cn(
        'rounded-md border p-3',
        ok ? 'border-success/40 bg-success/5' : 'border-destructive/40 bg-destructive/5',
        className,
      )}
      data-testid="connection-test-result"
      data-ok={String(ok)}
    >
      <ul className="space-y-1.5">
        <ResultRow
          name="Outgoing mail (SMTP)"
          kind="smtp"
          result={result.smtp}
          testId="connection-test-smtp"
          onTrust={onTrust}
          trusting={trusting}
        />
        <ResultRow
          name="Incoming mail (IMAP)"
          kind="imap"
          result={result.imap}
          testId="connection-test-imap"
          onTrust={onTrust}
          trusting={trusting}
        />
      </ul>
    </div>
  );
}
