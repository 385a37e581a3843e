import { categoryName } from '@shared/categories';
import type { AcceptScrapeResultInput, ScrapeResult, ScrapeResultStatus } from '@shared/scraper';
import { Check, ExternalLink, Pencil, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { CategoryPicker, CountryPicker } from '@/components/contacts/reference-pickers';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { FOUND_PAGE_SIZE, useFoundBusinesses, useReviewFoundBusiness } from './found-businesses-api';

const STATUS_TABS: { value: ScrapeResultStatus; label: string }[] = [
  { value: 'pending', label: 'To review' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'duplicate', label: 'Already in directory' },
];

const TEXT_FIELDS: { key: keyof AcceptScrapeResultInput; label: string; type?: string }[] = [
  { key: 'companyName', label: 'Business name' },
  { key: 'contactName', label: 'Contact name' },
  { key: 'jobTitle', label: 'Job title' },
  { key: 'email', label: 'Email', type: 'email' },
  { key: 'phone', label: 'Phone', type: 'tel' },
  { key: 'website', label: 'Website' },
  { key: 'address', label: 'Address' },
  { key: 'city', label: 'City' },
];

type Draft = Record<string, string>;

/** The field errors of a 400 answer (`errors: [{ path, message }]`). */
function fieldErrorsOf(error: unknown): { path: string; message: string }[] {
  const data = parseApiError(error).data as { errors?: { path: string; message: string }[] } | undefined;
  return Array.isArray(data?.errors) ? data.errors : [];
}

function draftOf(result: ScrapeResult): Draft {
  return {
    companyName: result.companyName,
    contactName: '',
    jobTitle: '',
    email: result.email,
    phone: result.phone ?? '',
    website: result.website ?? '',
    address: result.address ?? '',
    city: result.city ?? '',
    countryCode: result.countryCode ?? '',
    category: result.category ?? '',
  };
}

/** The officer's corrections: empty optional fields are sent as "none", required ones left out. */
function editsOf(draft: Draft): AcceptScrapeResultInput {
  const optional = (value: string | undefined) => (value?.trim() ? value.trim() : null);
  return {
    companyName: draft.companyName?.trim() || undefined,
    email: draft.email?.trim() || undefined,
    contactName: optional(draft.contactName),
    jobTitle: optional(draft.jobTitle),
    phone: optional(draft.phone),
    website: optional(draft.website),
    address: optional(draft.address),
    city: optional(draft.city),
    countryCode: draft.countryCode || undefined,
    category: draft.category || undefined,
  };
}

function EditAndAcceptDialog({ result, onClose }: { result: ScrapeResult | null; onClose: () => void }) {
  const review = useReviewFoundBusiness();
  const [draft, setDraft] = useState<Draft>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [openedFor, setOpenedFor] = useState<string | null>(null);
  if (result && openedFor !== result.id) {
    setOpenedFor(result.id);
    setDraft(draftOf(result));
    setErrors({});
  }
  const set = (key: string, value: string) => setDraft((current) => ({ ...current, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!result) return;
    review.mutate(
      { id: result.id, decision: 'accept', edits: editsOf(draft) },
      {
        onSuccess: (saved) => {
          toast({
            title: 'Added to the directory',
            description: `${saved.companyName} waits for verification.`,
          });
          onClose();
        },
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          setErrors(Object.fromEntries(fields.map((e) => [e.path, e.message])));
          if (fields.length === 0) {
            toast({
              title: 'Not added',
              description: getErrorMessage(error, 'Please try again.'),
              variant: 'destructive',
            });
          }
        },
      },
    );
  };

  return (
    <Dialog open={result !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Check and accept</DialogTitle>
          <DialogDescription>
            Correct what the page got wrong. The business goes into the directory unverified and waits in the
            verification queue.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={onSubmit} id="accept-found-business">
          {TEXT_FIELDS.map((field) => (
            <div key={field.key} className="space-y-1">
              <Label htmlFor={`found-${field.key}`}>{field.label}</Label>
              <Input
                id={`found-${field.key}`}
                type={field.type ?? 'text'}
                value={draft[field.key] ?? ''}
                onChange={(event) => set(field.key, event.target.value)}
                aria-invalid={errors[field.key] ? true : undefined}
              />
              {errors[field.key] && <p className="text-sm text-destructive">{errors[field.key]}</p>}
            </div>
          ))}
          <div className="space-y-1">
            <CountryPicker
              mode="all"
              multiple={false}
              placeholder="Choose a country"
              value={draft.countryCode ? [draft.countryCode] : []}
              onChange={(next) => set('countryCode', next[0] ?? '')}
            />
            {errors.countryCode && <p className="text-sm text-destructive">{errors.countryCode}</p>}
          </div>
          <div className="space-y-1">
            <CategoryPicker
              multiple={false}
              placeholder="Choose a category"
              value={draft.category ? [draft.category] : []}
              onChange={(next) => set('category', next[0] ?? '')}
            />
            {errors.category && <p className="text-sm text-destructive">{errors.category}</p>}
          </div>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="accept-found-business" disabled={review.isPending}>
            Accept
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function FoundBusiness({ result, onEdit }: { result: ScrapeResult; onEdit: (result: ScrapeResult) => void }) {
  const review = useReviewFoundBusiness();
  const decide = (decision: 'accept' | 'reject') =>
    review.mutate(
      decision === 'accept' ? { id: result.id, decision, edits: {} } : { id: result.id, decision },
      {
        onSuccess: () =>
          toast({
            title: decision === 'accept' ? 'Added to the directory' : 'Rejected',
            description: `${result.companyName} · ${result.email}`,
          }),
        onError: (error) => {
          // Missing country or category: the officer completes them in the form.
          if (fieldErrorsOf(error).length > 0) onEdit(result);
          else
            toast({
              title: 'Not saved',
              description: getErrorMessage(error, 'Please try again.'),
              variant: 'destructive',
            });
        },
      },
    );
  const where = [result.city, result.countryCode].filter(Boolean).join(', ');
  return (
    <li className="space-y-2 rounded-lg border p-3" data-testid="found-business">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-0.5">
          <p className="font-medium">{result.companyName}</p>
          <p className="break-all text-sm">{result.email}</p>
          <p className="text-sm text-muted-foreground">
            {[result.phone, where, result.category ? categoryName(result.category) : 'No category guessed']
              .filter(Boolean)
              .join(' · ')}
          </p>
          {result.address && <p className="text-sm text-muted-foreground">{result.address}</p>}
          <a
            href={result.sourceUrl}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="inline-flex max-w-full items-center gap-1 text-xs text-muted-foreground underline-offset-2 hover:underline"
          >
            <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
            <span className="truncate">{result.sourceUrl}</span>
          </a>
          <p className="text-xs text-muted-foreground">
            Found {formatDate(result.crawledAt)} by “{result.jobName}”
          </p>
        </div>
        {result.status === 'pending' ? (
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              onClick={() => decide('accept')}
              disabled={review.isPending}
              data-testid="accept-found"
            >
              <Check aria-hidden="true" />
              Accept
            </Button>
            <Button size="sm" variant="outline" onClick={() => onEdit(result)} disabled={review.isPending}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => decide('reject')}
              disabled={review.isPending}
              data-testid="reject-found"
            >
              <X aria-hidden="true" />
              Reject
            </Button>
          </div>
        ) : (
          <Badge variant={result.status === 'accepted' ? 'default' : 'secondary'}>
            {STATUS_TABS.find((tab) => tab.value === result.status)?.label}
          </Badge>
        )}
      </div>
    </li>
  );
}

/**
 * The review queue of businesses the scraper found: accept (as found, or corrected), or reject. Shared by
 * the officer's /data-entry and the operator's /admin/scraper.
 */
export function FoundBusinessesReview({ jobId }: { jobId?: string }) {
  const [status, setStatus] = useState<ScrapeResultStatus>('pending');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ScrapeResult | null>(null);
  const found = useFoundBusinesses({ status, page, jobId });
  const total = found.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / FOUND_PAGE_SIZE));

  return (
    <Card data-testid="found-businesses">
      <CardHeader>
        <CardTitle>Found on the web</CardTitle>
        <CardDescription>
          Businesses the scraper found, with the page each came from. Accepted ones join the directory
          unverified.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Tabs
          value={status}
          onValueChange={(value) => {
            setStatus(value as ScrapeResultStatus);
            setPage(1);
          }}
        >
          <TabsList className="h-auto flex-wrap">
            {STATUS_TABS.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value}>
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
        </Tabs>
        {found.isError && (
          <QueryError
            title="Found businesses could not be loaded"
            error={found.error}
            onRetry={() => found.refetch()}
          />
        )}
        {found.isPending && <Skeleton className="h-32 w-full" />}
        {found.data && found.data.results.length === 0 && (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
            {status === 'pending'
              ? 'Nothing to review. New finds appear here while crawls run.'
              : 'Nothing here yet.'}
          </p>
        )}
        {found.data && found.data.results.length > 0 && (
          <ul className="space-y-3">
            {found.data.results.map((result) => (
              <FoundBusiness key={result.id} result={result} onEdit={setEditing} />
            ))}
          </ul>
        )}
        {total > FOUND_PAGE_SIZE && (
          <div className="flex items-center justify-between gap-2 text-sm">
            <span className="text-muted-foreground">
              Page {page} of {formatNumber(pageCount)} · {formatNumber(total)} in all
            </span>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={page >= pageCount}
                onClick={() => setPage(page + 1)}
              >
                Next
              </Button>
            </div>
          </div>
        )}
      </CardContent>
      <EditAndAcceptDialog result={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}
