import { CONTACT_PREFIX_MIN, type ContactLocations } from '@shared/admin-data';
import { categoryName } from '@shared/categories';
import { Eraser, Search, ShieldOff, UserX } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
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
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import { useContactLookup, useContactSearch, useEraseContact } from '../api/admin-data';

type Mode = 'prefix' | 'exact';

function EraseDialog({
  email,
  open,
  onOpenChange,
}: {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const erase = useEraseContact();
  const [typed, setTyped] = useState('');
  const matches = typed.trim().toLowerCase() === email;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    erase.mutate(
      { email, confirm: typed },
      {
        onSuccess: (result) => {
          toast({ title: 'Erased everywhere', description: result.message });
          onOpenChange(false);
          setTyped('');
        },
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !erase.isPending && onOpenChange(next)}>
      <DialogContent data-testid="erase-dialog">
        <form onSubmit={submit} className="space-y-4">
          <DialogHeader>
            <DialogTitle>Erase this address everywhere?</DialogTitle>
            <DialogDescription asChild>
              <div className="space-y-2">
                <p>
                  <strong className="break-all">{email}</strong> is removed from every user's lists and from
                  the directory; its campaign recipients, their queued and sent messages and its replies are
                  deleted, and its events lose their details (their counts stay).
                </p>
                <p>
                  A tombstone (a hash of the address, never the address) keeps it from being added or mailed
                  again. This cannot be undone. The audit log records the hash.
                </p>
              </div>
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="erase-confirm">Type the address to confirm</Label>
            <Input
              id="erase-confirm"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              data-testid="erase-confirm-input"
            />
          </div>
          {erase.isError && (
            <p className="text-sm text-destructive" role="alert">
              {getErrorMessage(erase.error, 'The address could not be erased.')}
            </p>
          )}
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              onClick={() => onOpenChange(false)}
              disabled={erase.isPending}
            >
              Cancel
            </Button>
            <Button
              type="submit"
              variant="destructive"
              disabled={!matches || erase.isPending}
              data-testid="erase-confirm"
            >
              {erase.isPending ? 'Erasing…' : 'Erase everywhere'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {formatNumber(value)}
      </dd>
    </div>
  );
}

function Locations({ data, onErase }: { data: ContactLocations; onErase: () => void }) {
  const nothing = data.directory.length === 0 && data.lists.length === 0 && data.campaignRecipients === 0;
  return (
    <Card data-testid="contact-details">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <CardTitle className="break-all" data-testid="contact-email">
            {data.email}
          </CardTitle>
          <CardDescription className="break-all font-mono text-xs">sha256 {data.emailHash}</CardDescription>
          <div className="flex flex-wrap gap-2 pt-1">
            {data.erased && (
              <Badge variant="destructive" data-testid="erased-badge">
                <ShieldOff aria-hidden="true" /> Erased: never added or mailed again
              </Badge>
            )}
            {data.accountUserId && (
              <Badge variant="outline" title="Erasing contacts does not delete accounts; use Users for that">
                <UserX aria-hidden="true" /> Also a Tambari account
              </Badge>
            )}
          </div>
        </div>
        <Button
          variant="destructive"
          onClick={onErase}
          disabled={nothing && data.erased}
          data-testid="erase-button"
        >
          <Eraser aria-hidden="true" />
          Erase everywhere
        </Button>
      </CardHeader>
      <CardContent className="space-y-6">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Figure label="Campaign recipients" value={data.campaignRecipients} testId="figure-recipients" />
          <Figure label="Outbox messages" value={data.outboxMessages} testId="figure-outbox" />
          <Figure label="Events" value={data.events} testId="figure-events" />
          <Figure label="Replies kept" value={data.inboundMessages} testId="figure-inbound" />
        </dl>

        <section className="space-y-2">
          <h3 className="font-medium">Directory ({data.directory.length})</h3>
          {data.directory.length === 0 ? (
            <p className="text-sm text-muted-foreground">Not in the directory.</p>
          ) : (
            <ul className="divide-y rounded-md border" data-testid="directory-records">
              {data.directory.map((record) => (
                <li
                  key={record.id}
                  className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="truncate font-medium">
                      {record.companyName} {record.deleted && <Badge variant="outline">In recycle bin</Badge>}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      {record.countryCode} · {categoryName(record.category)} · {record.source} ·{' '}
                      {record.verificationStatus}
                    </p>
                  </div>
                  <span className="text-xs text-muted-foreground">Added {formatDate(record.createdAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="space-y-2">
          <h3 className="font-medium">Users' lists ({data.lists.length})</h3>
          {data.lists.length === 0 ? (
            <p className="text-sm text-muted-foreground">In nobody's list.</p>
          ) : (
            <ul className="divide-y rounded-md border" data-testid="list-memberships">
              {data.lists.map((list) => (
                <li
                  key={list.listId}
                  className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="truncate font-medium">
                      {list.listName} {list.listDeleted && <Badge variant="outline">In recycle bin</Badge>}
                    </p>
                    <p className="truncate text-xs text-muted-foreground">Owner: {list.ownerEmail}</p>
                  </div>
                  <span className="text-xs text-muted-foreground">Added {formatDate(list.addedAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="space-y-2">
          <h3 className="font-medium">Suppression entries ({data.suppressions.length})</h3>
          {data.suppressions.length === 0 ? (
            <p className="text-sm text-muted-foreground">No one has suppressed this address.</p>
          ) : (
            <ul className="flex flex-wrap gap-2" data-testid="suppression-entries">
              {data.suppressions.map((entry) => (
                <li key={`${entry.ownerEmail ?? 'platform'}-${entry.reason}`}>
                  <Badge variant={entry.reason === 'erased' ? 'destructive' : 'secondary'}>
                    {entry.ownerEmail ?? 'Platform-wide'}: {entry.reason} · {formatDate(entry.createdAt)}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

/**
 * Find any address across the directory and every user's lists (support and data-protection
 * requests), see where it appears, and erase it everywhere.
 */
export default function AdminContactsPage() {
  const [text, setText] = useState('');
  const [mode, setMode] = useState<Mode>('prefix');
  const [submitted, setSubmitted] = useState<{ q: string; mode: Mode } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [erasing, setErasing] = useState(false);
  const search = useContactSearch(submitted?.q ?? '', submitted?.mode ?? 'prefix');
  const lookup = useContactLookup(selected);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim().toLowerCase();
    if (!q) return;
    setSubmitted({ q, mode });
    // An exact search of a whole address opens it straight away.
    setSelected(mode === 'exact' && q.includes('@') ? q : null);
  };
  const tooShort = mode === 'prefix' && text.trim().length > 0 && text.trim().length < CONTACT_PREFIX_MIN;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6" data-testid="admin-contacts-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Contacts</h1>
        <p className="text-muted-foreground">
          Find an email address across the directory and every user's lists, for support and data-protection
          requests: where it appears, who suppressed it, what was sent to it — and erase it everywhere.
        </p>
      </header>

      <form
        onSubmit={onSubmit}
        className="flex flex-col gap-3 sm:flex-row sm:items-center"
        aria-label="Find an address"
      >
        <Tabs value={mode} onValueChange={(value) => setMode(value as Mode)}>
          <TabsList>
            <TabsTrigger value="prefix" data-testid="mode-prefix">
              Starts with
            </TabsTrigger>
            <TabsTrigger value="exact" data-testid="mode-exact">
              Exact
            </TabsTrigger>
          </TabsList>
        </Tabs>
        <SearchInput
          className="flex-1"
          value={text}
          onChange={setText}
          placeholder={mode === 'exact' ? 'name@company.com' : 'The first letters of an address'}
          aria-label="Email address"
          maxLength={254}
          data-testid="contact-search"
        />
        <Button type="submit" disabled={!text.trim() || tooShort} data-testid="contact-search-submit">
          Search
        </Button>
      </form>
      {tooShort && (
        <p className="-mt-4 text-sm text-muted-foreground">Type at least {CONTACT_PREFIX_MIN} characters.</p>
      )}

      {search.isError && (
        <QueryError title="The search failed" error={search.error} onRetry={() => search.refetch()} />
      )}

      {!submitted ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center"
          data-testid="contacts-start"
        >
          <Search className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">Search for an address to see everywhere it appears</p>
          <p className="max-w-md text-sm text-muted-foreground">
            "Starts with" finds up to 50 addresses; "Exact" opens one address with its lists, suppressions and
            sending history.
          </p>
        </div>
      ) : (
        search.data &&
        !selected && (
          <Card>
            <CardHeader>
              <CardTitle className="text-base">
                {search.data.matches.length === 0
                  ? 'No address matches'
                  : `${search.data.matches.length}${search.data.more ? '+' : ''} address${search.data.matches.length === 1 ? '' : 'es'}`}
              </CardTitle>
              <CardDescription>
                {search.data.matches.length === 0
                  ? 'Nothing in the directory or any list. An exact search still shows its suppressions and sending history.'
                  : 'Open an address to see where it appears.'}
                {search.data.more && ' Showing the first 50: type more of the address to narrow it down.'}
              </CardDescription>
            </CardHeader>
            <CardContent>
              {search.data.matches.length === 0 ? (
                submitted.q.includes('@') && (
                  <Button variant="outline" onClick={() => setSelected(submitted.q)} data-testid="open-exact">
                    Open {submitted.q}
                  </Button>
                )
              ) : (
                <ul className="divide-y rounded-md border" data-testid="contact-matches">
                  {search.data.matches.map((match) => (
                    <li key={match.email}>
                      <button
                        type="button"
                        className="flex w-full flex-col gap-1 p-3 text-left hover:bg-muted sm:flex-row sm:items-center sm:justify-between"
                        onClick={() => setSelected(match.email)}
                        data-testid="contact-match"
                      >
                        <span className="break-all font-medium">{match.email}</span>
                        <span className="text-xs text-muted-foreground">
                          {formatNumber(match.directoryRecords)} directory ·{' '}
                          {formatNumber(match.listMemberships)} lists
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        )
      )}

      {selected && (
        <>
          {submitted?.mode === 'prefix' && (
            <Button variant="ghost" className="self-start" onClick={() => setSelected(null)}>
              ← Back to the matches
            </Button>
          )}
          {lookup.isError && (
            <QueryError
              title="The address could not be looked up"
              error={lookup.error}
              onRetry={() => lookup.refetch()}
            />
          )}
          {lookup.data ? (
            <Locations data={lookup.data} onErase={() => setErasing(true)} />
          ) : (
            !lookup.isError && <Skeleton className="h-64 w-full" />
          )}
          <EraseDialog email={selected} open={erasing} onOpenChange={setErasing} />
        </>
      )}
    </div>
  );
}
