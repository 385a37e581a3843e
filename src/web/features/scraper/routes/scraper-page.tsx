import { SCRAPE_LIMITS, type ScrapeJob, type ScrapeJobStatus } from '@shared/scraper';
import { ChevronDown, ChevronUp, Pause, Play, Plus, Square } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CountryPicker } from '@/components/contacts/reference-pickers';
import { QueryError } from '@/components/query-error';
import { FoundBusinessesReview } from '@/components/scraper/found-businesses-review';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
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
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import {
  type ScrapeJobAction,
  useCreateScrapeJob,
  useScrapeJobAction,
  useScrapeJobDetail,
  useScrapeJobs,
} from '../api/scrape-jobs';

const STATUS_LABEL: Record<ScrapeJobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  completed: 'Completed',
  failed: 'Failed',
};

function StatusBadge({ status }: { status: ScrapeJobStatus }) {
  const variant = status === 'failed' ? 'destructive' : status === 'running' ? 'default' : 'secondary';
  return (
    <Badge variant={variant} data-testid="scrape-job-status">
      {STATUS_LABEL[status]}
    </Badge>
  );
}

interface FormState {
  name: string;
  seeds: string;
  maxDepth: string;
  maxPages: string;
  delaySeconds: string;
  sameSiteOnly: boolean;
  country: string;
}

const EMPTY_FORM: FormState = {
  name: '',
  seeds: '',
  maxDepth: '2',
  maxPages: '200',
  delaySeconds: '2',
  sameSiteOnly: true,
  country: '',
};

function NewCrawlDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateScrapeJob();
  const [form, setForm] = useState<FormState>(EMPTY_FORM);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const seeds = form.seeds
      .split(/\s+/)
      .map((seed) => seed.trim())
      .filter(Boolean);
    create.mutate(
      {
        name: form.name,
        seeds,
        maxDepth: Number(form.maxDepth),
        maxPages: Number(form.maxPages),
        delaySeconds: Number(form.delaySeconds),
        sameSiteOnly: form.sameSiteOnly,
        defaultCountryCode: form.country || null,
      },
      {
        onSuccess: (job) => {
          toast({
            title: 'Crawl started',
            description: `${job.name}: ${job.seeds.length} seed address(es).`,
          });
          setForm(EMPTY_FORM);
          onOpenChange(false);
        },
        onError: (failure) => {
          const data = parseApiError(failure).data as
            | { errors?: { path: string; message: string }[] }
            | undefined;
          setError(data?.errors?.[0]?.message ?? getErrorMessage(failure, 'The crawl could not be started.'));
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>New crawl</DialogTitle>
          <DialogDescription>
            Start from business directories, chambers of commerce or company sites, or their sitemaps. The
            crawler names itself TambariBot, obeys robots.txt and waits between requests to each site.
          </DialogDescription>
        </DialogHeader>
        <form id="new-crawl" className="space-y-4" onSubmit={onSubmit}>
          <div className="space-y-1">
            <Label htmlFor="crawl-name">Name</Label>
            <Input
              id="crawl-name"
              value={form.name}
              onChange={(e) => set('name', e.target.value)}
              placeholder="Lagos Chamber members"
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor="crawl-seeds">Seed addresses</Label>
            <Textarea
              id="crawl-seeds"
              rows={4}
              value={form.seeds}
              onChange={(e) => set('seeds', e.target.value)}
              placeholder={'https://www.example-chamber.ng/members\nhttps://www.example.co.ke/sitemap.xml'}
            />
            <p className="text-xs text-muted-foreground">
              One per line, at most {SCRAPE_LIMITS.maxSeeds}. A sitemap (…sitemap.xml) lists its pages.
            </p>
          </div>
          <div className="grid gap-3 sm:grid-cols-3">
            <div className="space-y-1">
              <Label htmlFor="crawl-depth">Link depth</Label>
              <Input
                id="crawl-depth"
                type="number"
                min={0}
                max={SCRAPE_LIMITS.maxDepth}
                value={form.maxDepth}
                onChange={(e) => set('maxDepth', e.target.value)}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="crawl-pages">Page limit</Label>
              <Input
                id="crawl-pages"
                type="number"
                min={1}
                max={SCRAPE_LIMITS.maxPages}
                value={form.maxPages}
                onChange={(e) => set('maxPages', e.target.value)}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="crawl-delay">Seconds between requests</Label>
              <Input
                id="crawl-delay"
                type="number"
                min={SCRAPE_LIMITS.minDelaySeconds}
                max={SCRAPE_LIMITS.maxDelaySeconds}
                value={form.delaySeconds}
                onChange={(e) => set('delaySeconds', e.target.value)}
              />
            </div>
          </div>
          <CountryPicker
            mode="all"
            multiple={false}
            label="Country (for local phone numbers)"
            placeholder="Work it out from each page"
            value={form.country ? [form.country] : []}
            onChange={(next) => set('country', next[0] ?? '')}
          />
          <div className="flex items-center gap-2">
            <Switch
              id="crawl-same-site"
              checked={form.sameSiteOnly}
              onCheckedChange={(v) => set('sameSiteOnly', v)}
            />
            <Label htmlFor="crawl-same-site">Stay on the seed sites</Label>
          </div>
          {error && (
            <p className="text-sm text-destructive" role="alert" data-testid="new-crawl-error">
              {error}
            </p>
          )}
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="new-crawl" disabled={create.isPending}>
            Start crawl
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function JobDetail({ jobId }: { jobId: string }) {
  const detail = useScrapeJobDetail(jobId);
  if (detail.isError) return <QueryError title="The crawl could not be loaded" error={detail.error} />;
  if (!detail.data) return <Skeleton className="h-24 w-full" />;
  const { skipped, recentPages, job } = detail.data;
  return (
    <div className="space-y-4 border-t pt-4" data-testid="scrape-job-detail">
      <div className="space-y-1 text-sm">
        <p className="font-medium">Seeds</p>
        <ul className="space-y-0.5 text-muted-foreground">
          {job.seeds.map((seed) => (
            <li key={seed} className="break-all">
              {seed}
            </li>
          ))}
        </ul>
        <p className="text-muted-foreground">
          Depth {job.maxDepth} · at most {formatNumber(job.maxPages)} pages · {job.delaySeconds}s between
          requests
          {job.sameSiteOnly ? ' · seed sites only' : ''}
          {job.defaultCountryCode ? ` · country ${job.defaultCountryCode}` : ''}
        </p>
        {job.error && <p className="text-destructive">Stopped: {job.error}</p>}
      </div>
      <div className="space-y-1">
        <p className="text-sm font-medium">Skipped pages</p>
        {skipped.length === 0 ? (
          <p className="text-sm text-muted-foreground">None so far.</p>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="skip-reasons">
            {skipped.map((entry) => (
              <li key={entry.reason}>
                <Badge variant="outline">
                  {entry.label}: {formatNumber(entry.count)}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="space-y-1">
        <p className="text-sm font-medium">Latest pages</p>
        <div className="overflow-x-auto">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Page</TableHead>
                <TableHead>Result</TableHead>
                <TableHead className="text-right">Found</TableHead>
                <TableHead>When</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {recentPages.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4} className="text-center text-muted-foreground">
                    No page fetched yet.
                  </TableCell>
                </TableRow>
              )}
              {recentPages.map((page) => (
                <TableRow key={page.url}>
                  <TableCell className="max-w-80 truncate" title={page.url}>
                    {page.url}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {page.status === 'fetched'
                      ? `Fetched${page.httpStatus ? ` (${page.httpStatus})` : ''}`
                      : page.reason}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{page.recordsFound}</TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">
                    {page.fetchedAt ? formatRelative(page.fetchedAt) : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </div>
    </div>
  );
}

function JobCard({
  job,
  expanded,
  onToggle,
  onAction,
}: {
  job: ScrapeJob;
  expanded: boolean;
  onToggle: () => void;
  onAction: (action: ScrapeJobAction) => void;
}) {
  const done = job.pagesFetched + job.pagesSkipped;
  const progress = Math.min(100, Math.round((job.pagesFetched / Math.max(1, job.maxPages)) * 100));
  const live = job.status === 'queued' || job.status === 'running';
  return (
    // min-w-0: the pages table scrolls inside the card instead of widening it past a phone's screen.
    <Card data-testid="scrape-job" className={expanded ? 'min-w-0 lg:col-span-2' : 'min-w-0'}>
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0 space-y-1">
            <CardTitle className="text-base">{job.name}</CardTitle>
            <p className="text-sm text-muted-foreground">
              Started {formatDateTime(job.createdAt)}
              {job.finishedAt ? ` · ended ${formatRelative(job.finishedAt)}` : ''}
            </p>
          </div>
          <StatusBadge status={job.status} />
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        <Progress
          value={job.status === 'completed' ? 100 : progress}
          aria-label="Pages fetched of the page limit"
        />
        <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
          {[
            ['Fetched', job.pagesFetched],
            ['Skipped', job.pagesSkipped],
            ['Waiting', job.pagesPending],
            ['Businesses found', job.recordsFound],
            ['To review', job.recordsPending],
          ].map(([label, value]) => (
            <div key={label as string}>
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-medium tabular-nums">{formatNumber(value as number)}</dd>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap gap-2">
          {live && (
            <Button size="sm" variant="outline" onClick={() => onAction('pause')}>
              <Pause aria-hidden="true" />
              Pause
            </Button>
          )}
          {job.status === 'paused' && (
            <Button size="sm" variant="outline" onClick={() => onAction('resume')}>
              <Play aria-hidden="true" />
              Resume
            </Button>
          )}
          {(live || job.status === 'paused') && (
            <Button size="sm" variant="ghost" onClick={() => onAction('cancel')}>
              <Square aria-hidden="true" />
              Cancel
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onToggle} aria-expanded={expanded}>
            {expanded ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
            {expanded ? 'Hide pages' : `Pages (${formatNumber(done)})`}
          </Button>
        </div>
        {expanded && <JobDetail jobId={job.id} />}
      </CardContent>
    </Card>
  );
}

/** The scraper: crawls of business sites, their progress, and the review of what they found. */
export default function ScraperPage() {
  const jobs = useScrapeJobs();
  const act = useScrapeJobAction();
  const [creating, setCreating] = useState(false);
  const [expanded, setExpanded] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<ScrapeJob | null>(null);

  const run = (job: ScrapeJob, action: ScrapeJobAction) =>
    act.mutate(
      { id: job.id, action },
      {
        onSuccess: (updated) =>
          toast({ title: `${updated.name}: ${STATUS_LABEL[updated.status].toLowerCase()}` }),
        onError: (error) =>
          toast({
            title: 'Not changed',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="scraper-page">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Scraper</h1>
          <p className="text-muted-foreground">
            Crawl public business sites for contacts. What a crawl finds waits for a data entry officer to
            accept it; accepted businesses join the directory with the page they came from, then get verified.
          </p>
        </div>
        <Button onClick={() => setCreating(true)} data-testid="new-crawl">
          <Plus aria-hidden="true" />
          New crawl
        </Button>
      </header>

      {jobs.isError && (
        <QueryError title="Crawls could not be loaded" error={jobs.error} onRetry={() => jobs.refetch()} />
      )}
      {jobs.isPending && <Skeleton className="h-40 w-full" />}
      {jobs.data?.jobs.length === 0 && (
        <div className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">
          No crawls yet. Start one from a directory or chamber of commerce listing, or a company sitemap.
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        {jobs.data?.jobs.map((job) => (
          <JobCard
            key={job.id}
            job={job}
            expanded={expanded === job.id}
            onToggle={() => setExpanded(expanded === job.id ? null : job.id)}
            onAction={(action) => (action === 'cancel' ? setCancelling(job) : run(job, action))}
          />
        ))}
      </div>

      <FoundBusinessesReview />

      <NewCrawlDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && setCancelling(null)}
        title="Cancel this crawl?"
        description="It stops for good; what it found so far stays in the review queue."
        confirmLabel="Cancel crawl"
        onConfirm={() => {
          if (cancelling) run(cancelling, 'cancel');
          setCancelling(null);
        }}
      />
    </div>
  );
}
