import { categoryName } from '@shared/categories';
import { CONTACT_MESSAGES } from '@shared/contacts';
import type { DirectoryContact } from '@shared/directory';
import { BadgeCheck, CircleSlash, ExternalLink, Inbox, Pencil, SkipForward } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Kbd } from '@/components/ui/kbd';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useCountries } from '@/hooks/use-reference';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { useDataEntryStats, useVerificationQueue, useVerifyContact } from '../api/data-entry';
import { isTypingTarget, QUEUE_KEYS, remainingQueue, shouldLoadMore } from '../lib/queue';

const SOURCE_LABELS: Record<DirectoryContact['source'], string> = {
  import: 'CSV import',
  data_entry: 'Data entry',
  scraper: 'Scraper',
  seed: 'Sample data',
};

function websiteHref(website: string): string {
  return /^https?:\/\//i.test(website) ? website : `https://${website}`;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate">{children || <span className="text-muted-foreground">—</span>}</dd>
    </div>
  );
}

/**
 * The team's unverified contacts, oldest first, one at a time: Verify (V), Mark invalid (I, with a
 * reason), Skip (S), Edit (E). The next one appears at once; more load before the list runs dry.
 */
export function VerificationQueue({ onEdit }: { onEdit: (contact: DirectoryContact) => void }) {
  const queue = useVerificationQueue();
  const stats = useDataEntryStats();
  const verify = useVerifyContact();
  const { byCode } = useCountries();
  const [handled, setHandled] = useState<Set<string>>(() => new Set());
  const [marking, setMarking] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const reasonRef = useRef<HTMLInputElement>(null);

  const remaining = useMemo(() => remainingQueue(queue.data?.pages, handled), [queue.data, handled]);
  const current = remaining[0];
  const upNext = remaining.slice(1, 6);

  useEffect(() => {
    if (shouldLoadMore(remaining.length, queue.hasNextPage, queue.isFetchingNextPage))
      void queue.fetchNextPage();
  }, [remaining.length, queue]);

  const moveOn = (id: string) => {
    setHandled((previous) => new Set(previous).add(id));
    setMarking(false);
    setReason('');
    setReasonError(null);
    // The next contact's name is read out and keyboard focus stays in the queue.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  const doVerify = () => {
    if (!current || verify.isPending) return;
    verify.mutate(
      { id: current.id, status: 'verified' },
      {
        onSuccess: () => moveOn(current.id),
        onError: (error) =>
          toast({
            title: 'Not verified',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );
  };

  const doInvalid = () => {
    if (!current || verify.isPending) return;
    if (!reason.trim()) {
      setReasonError(CONTACT_MESSAGES.invalidNeedsReason);
      reasonRef.current?.focus();
      return;
    }
    verify.mutate(
      { id: current.id, status: 'invalid', reason: reason.trim() },
      {
        onSuccess: () => moveOn(current.id),
        onError: (error) =>
          toast({
            title: 'Not saved',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );
  };

  const startMarking = () => {
    setMarking(true);
    setReasonError(null);
    requestAnimationFrame(() => reasonRef.current?.focus());
  };

  // Keyboard shortcuts while no text field or dialog has focus.
  const actions = useRef({
    doVerify,
    startMarking,
    skip: () => current && moveOn(current.id),
    edit: () => current && onEdit(current),
  });
  actions.current = {
    doVerify,
    startMarking,
    skip: () => current && moveOn(current.id),
    edit: () => current && onEdit(current),
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (
        event.defaultPrevented ||
        event.altKey ||
        event.ctrlKey ||
        event.metaKey ||
        isTypingTarget(event.target)
      )
        return;
      const key = event.key.toLowerCase();
      if (key === QUEUE_KEYS.verify) actions.current.doVerify();
      else if (key === QUEUE_KEYS.invalid) actions.current.startMarking();
      else if (key === QUEUE_KEYS.skip) actions.current.skip();
      else if (key === QUEUE_KEYS.edit) actions.current.edit();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const queueSize = stats.data?.queueSize;
  const country = current ? byCode.get(current.countryCode) : undefined;

  return (
    <Card id="verification-queue" data-testid="verification-queue">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <BadgeCheck className="size-5 text-primary" aria-hidden="true" />
          <h2>Verification queue</h2>
          {queueSize !== undefined && (
            <Badge variant="secondary" data-testid="queue-size">
              {formatNumber(queueSize)} waiting
            </Badge>
          )}
        </CardTitle>
        <CardDescription>
          Oldest first. Check the email, phone and website, then verify or mark invalid. Keys: <Kbd>V</Kbd>{' '}
          verify, <Kbd>I</Kbd> invalid, <Kbd>S</Kbd> skip, <Kbd>E</Kbd> edit.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {queue.isError ? (
          <QueryError
            title="The queue could not be loaded"
            error={queue.error}
            onRetry={() => queue.refetch()}
          />
        ) : queue.isPending ? (
          <Skeleton className="h-56" />
        ) : !current ? (
          <div
            className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center"
            data-testid="queue-empty"
          >
            <Inbox className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">
              {handled.size > 0 ? 'You have reached the end of the queue' : 'The queue is empty'}
            </p>
            <p className="max-w-sm text-sm text-muted-foreground">
              {handled.size > 0
                ? `${formatNumber(handled.size)} handled in this session. Well done.`
                : 'Every contact has been checked. New ones appear here as they are added.'}
            </p>
            {handled.size > 0 && (
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  setHandled(new Set());
                  void queue.refetch();
                }}
              >
                Check for new contacts
              </Button>
            )}
          </div>
        ) : (
          <article
            className="grid min-w-0 grid-cols-1 gap-4 rounded-lg border p-4"
            aria-labelledby="queue-current"
            data-testid="queue-item"
            data-contact-id={current.id}
          >
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h3
                  id="queue-current"
                  ref={headingRef}
                  tabIndex={-1}
                  className="truncate text-lg font-semibold outline-none"
                  data-testid="queue-company"
                >
                  {current.companyName}
                </h3>
                <p className="text-sm text-muted-foreground">
                  {categoryName(current.category)} · added {formatRelative(current.createdAt)} (
                  {SOURCE_LABELS[current.source]})
                </p>
              </div>
              <Button variant="ghost" size="sm" onClick={() => onEdit(current)} data-testid="queue-edit">
                <Pencil aria-hidden="true" />
                Edit
              </Button>
            </div>
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              <Detail label="Contact">
                {[current.contactName, current.jobTitle].filter(Boolean).join(' · ')}
              </Detail>
              <Detail label="Email">
                <a href={`mailto:${current.email}`} className="text-primary hover:underline">
                  {current.email}
                </a>
              </Detail>
              <Detail label="Phone">
                {current.phone && (
                  <a href={`tel:${current.phone}`} className="text-primary hover:underline">
                    {current.phone}
                  </a>
                )}
              </Detail>
              <Detail label="Website">
                {current.website && (
                  <a
                    href={websiteHref(current.website)}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex items-center gap-1 text-primary hover:underline"
                  >
                    {current.website.replace(/^https?:\/\//, '')}
                    <ExternalLink className="size-3" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                )}
              </Detail>
              <Detail label="Address">{current.address}</Detail>
              <Detail label="Location">
                {country ? `${country.flag} ` : ''}
                {[current.city, country?.name ?? current.countryCode].filter(Boolean).join(', ')}
              </Detail>
            </dl>
            {marking && (
              <form
                className="grid gap-2 rounded-lg bg-muted/50 p-3"
                onSubmit={(event) => {
                  event.preventDefault();
                  doInvalid();
                }}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') {
                    event.stopPropagation();
                    setMarking(false);
                    headingRef.current?.focus();
                  }
                }}
              >
                <Label htmlFor="invalid-reason">Why is this contact invalid?</Label>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Input
                    id="invalid-reason"
                    ref={reasonRef}
                    value={reason}
                    onChange={(event) => {
                      setReason(event.target.value);
                      setReasonError(null);
                    }}
                    placeholder="e.g. Email bounces, business closed"
                    maxLength={300}
                    aria-invalid={Boolean(reasonError) || undefined}
                    aria-describedby={reasonError ? 'invalid-reason-error' : undefined}
                    data-testid="invalid-reason"
                  />
                  <Button
                    type="submit"
                    variant="destructive"
                    disabled={verify.isPending}
                    data-testid="confirm-invalid"
                  >
                    Mark invalid
                  </Button>
                  <Button type="button" variant="ghost" onClick={() => setMarking(false)}>
                    Cancel
                  </Button>
                </div>
                {reasonError && (
                  <p id="invalid-reason-error" className="text-sm text-destructive" role="alert">
                    {reasonError}
                  </p>
                )}
              </form>
            )}
            {!marking && (
              <div className="flex flex-wrap gap-2">
                <Button onClick={doVerify} disabled={verify.isPending} data-testid="queue-verify">
                  <BadgeCheck aria-hidden="true" />
                  Verify <Kbd className="ml-1 bg-primary-foreground/20 text-primary-foreground">V</Kbd>
                </Button>
                <Button
                  variant="outline"
                  onClick={startMarking}
                  disabled={verify.isPending}
                  data-testid="queue-invalid"
                >
                  <CircleSlash aria-hidden="true" />
                  Mark invalid <Kbd className="ml-1">I</Kbd>
                </Button>
                <Button
                  variant="ghost"
                  onClick={() => moveOn(current.id)}
                  disabled={verify.isPending}
                  data-testid="queue-skip"
                >
                  <SkipForward aria-hidden="true" />
                  Skip <Kbd className="ml-1">S</Kbd>
                </Button>
              </div>
            )}
          </article>
        )}
        {current && upNext.length > 0 && (
          <div className="grid gap-2">
            <h3 className="text-sm font-medium text-muted-foreground">Up next</h3>
            <ol className="divide-y rounded-lg border text-sm">
              {upNext.map((item) => (
                <li key={item.id} className="flex items-center justify-between gap-3 px-3 py-2">
                  <span className="min-w-0 truncate">{item.companyName}</span>
                  <span
                    className="shrink-0 text-xs text-muted-foreground"
                    title={formatDateTime(item.createdAt)}
                  >
                    {formatRelative(item.createdAt)}
                  </span>
                </li>
              ))}
            </ol>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
