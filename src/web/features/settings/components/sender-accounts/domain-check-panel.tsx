import type { DomainCheck, DomainCheckItem } from '@shared/sending';
import { RefreshCw, ShieldQuestion } from 'lucide-react';
import { CopyButton } from '@/components/copy-button';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  DOMAIN_CHECK_LABELS,
  DOMAIN_CHECK_PURPOSE,
  DOMAIN_STATUS_LABELS,
  type DomainCheckKey,
  domainCheckItems,
  summarizeDomainCheck,
} from '../../lib/sender-display';
import { DomainStatusPill } from './domain-check-pills';

function FixRecord({ fix, label }: { fix: NonNullable<DomainCheckItem['fix']>; label: string }) {
  const rows = [
    { name: 'Type', value: fix.type, copy: false },
    { name: 'Host', value: fix.host, copy: true },
    { name: 'Value', value: fix.value, copy: true },
  ];
  return (
    <div className="space-y-2 rounded-md border bg-muted/40 p-3" data-testid="domain-fix">
      <p className="text-sm font-medium">Add this record at your domain's DNS host</p>
      <dl className="grid gap-2 text-sm sm:grid-cols-[4rem_1fr]">
        {rows.map((row) => (
          <div key={row.name} className="contents">
            <dt className="pt-1.5 text-muted-foreground">{row.name}</dt>
            <dd className="flex min-w-0 items-start gap-1">
              <code
                className="min-w-0 flex-1 rounded bg-background px-2 py-1.5 font-mono text-xs break-all"
                data-testid={`domain-fix-${row.name.toLowerCase()}`}
              >
                {row.value}
              </code>
              {row.copy && (
                <CopyButton value={row.value} label={`Copy the ${label} ${row.name.toLowerCase()}`} />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function CheckRow({ keyName, item }: { keyName: DomainCheckKey; item: DomainCheck[DomainCheckKey] }) {
  const label = DOMAIN_CHECK_LABELS[keyName];
  const selector = keyName === 'dkim' ? (item as DomainCheck['dkim']).selector : undefined;
  return (
    <li className="space-y-2 py-4 first:pt-0 last:pb-0" data-testid={`domain-check-${keyName}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="font-medium">{label}</h4>
        <DomainStatusPill
          label={DOMAIN_STATUS_LABELS[item.status]}
          status={item.status}
          announceStatus={false}
        />
      </div>
      <p className="text-xs text-muted-foreground">{DOMAIN_CHECK_PURPOSE[keyName]}</p>
      <p className="text-sm">{item.detail}</p>
      {selector !== undefined && (
        <p className="text-sm text-muted-foreground">
          Selector:{' '}
          {selector ? (
            <code className="font-mono text-foreground">{selector}</code>
          ) : (
            'none found (set yours in the account settings if your host uses its own)'
          )}
        </p>
      )}
      {item.found && (
        <div className="flex min-w-0 items-start gap-1">
          <code className="min-w-0 flex-1 rounded bg-muted px-2 py-1.5 font-mono text-xs break-all">
            {item.found}
          </code>
        </div>
      )}
      {item.status !== 'pass' && item.fix && <FixRecord fix={item.fix} label={label} />}
    </li>
  );
}

/**
 * The domain check in full: each record's result, what was found, and for anything not passing the exact
 * record to add, with copy buttons. "Check again" looks the records up afresh.
 */
export function DomainCheckPanel({
  check,
  onCheck,
  checking,
  className,
}: {
  check: DomainCheck | null;
  onCheck: () => void;
  checking: boolean;
  className?: string;
}) {
  const summary = summarizeDomainCheck(check);
  return (
    <section
      className={cn('space-y-4', className)}
      aria-label={check ? `Domain check for ${check.domain}` : 'Domain check'}
      data-testid="domain-check-panel"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <p className="font-medium">{summary.headline}</p>
          <p className="text-xs text-muted-foreground">
            {check
              ? `Checked ${formatDateTime(check.checkedAt)}. DNS changes can take a few hours to show.`
              : 'Check the SPF, DKIM, DMARC and MX records of the from address’s domain.'}
          </p>
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="self-start"
          onClick={onCheck}
          disabled={checking}
          data-testid="domain-check-again"
        >
          <RefreshCw className={cn(checking && 'animate-spin')} aria-hidden="true" />
          {checking ? 'Checking…' : check ? 'Check again' : 'Check domain'}
        </Button>
      </div>
      {check ? (
        <ul className="divide-y">
          {domainCheckItems(check).map(({ key, item }) => (
            <CheckRow key={key} keyName={key} item={item} />
          ))}
        </ul>
      ) : (
        <div className="flex items-center gap-3 rounded-md border border-dashed p-4 text-sm text-muted-foreground">
          <ShieldQuestion className="size-5 shrink-0" aria-hidden="true" />
          No results yet. Tambari checks each sender domain daily; check now to see what to fix.
        </div>
      )}
    </section>
  );
}
