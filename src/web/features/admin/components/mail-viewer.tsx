import type { DevMail } from '@shared/admin';
import { ArrowLeft, ExternalLink, Link2 } from 'lucide-react';
import { useMemo } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatDateTime } from '@/lib/format';
import { extractMailLinks, withoutOpenPixel } from '../lib/mail-links';
import { SimulateActions } from './simulate-actions';

export function MailViewerSkeleton() {
  return (
    <div className="space-y-4 p-6" role="status" aria-label="Loading the message">
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-4 w-1/2" />
      <Skeleton className="h-4 w-1/3" />
      <Skeleton className="h-80 w-full" />
    </div>
  );
}

export function MailViewer({ mail, onBack }: { mail: DevMail; onBack: () => void }) {
  const links = useMemo(() => extractMailLinks(mail.html, mail.text), [mail.html, mail.text]);
  const shownHtml = useMemo(() => (mail.html ? withoutOpenPixel(mail.html) : null), [mail.html]);
  const defaultTab = mail.html ? 'html' : mail.text ? 'text' : 'headers';

  return (
    <article
      className="flex min-h-0 flex-1 flex-col"
      data-testid="mail-viewer"
      aria-labelledby="mail-subject"
    >
      <header className="space-y-3 border-b p-4 sm:p-6">
        <Button variant="ghost" size="sm" className="-ml-2 lg:hidden" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          All messages
        </Button>
        <h2 id="mail-subject" className="text-xl font-semibold break-words" data-testid="mail-subject">
          {mail.subject || '(no subject)'}
        </h2>
        <dl className="grid grid-cols-[4.5rem_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-muted-foreground">From</dt>
          <dd className="min-w-0 break-all">{mail.from || '—'}</dd>
          <dt className="text-muted-foreground">To</dt>
          <dd className="min-w-0 break-all">{mail.to || '—'}</dd>
          <dt className="text-muted-foreground">Received</dt>
          <dd>
            <time dateTime={mail.receivedAt}>{formatDateTime(mail.receivedAt)}</time>
          </dd>
        </dl>
        <SimulateActions key={mail.id} mailId={mail.id} />
      </header>

      <Tabs key={mail.id} defaultValue={defaultTab} className="min-h-0 flex-1 gap-4 p-4 sm:p-6">
        <TabsList>
          <TabsTrigger value="html" disabled={!mail.html} data-testid="mail-tab-html">
            HTML
          </TabsTrigger>
          <TabsTrigger value="text" disabled={!mail.text} data-testid="mail-tab-text">
            Text
          </TabsTrigger>
          <TabsTrigger value="headers" data-testid="mail-tab-headers">
            Headers
          </TabsTrigger>
        </TabsList>
        <TabsContent value="html">
          {mail.html ? (
            // An empty sandbox: no scripts, forms, popups or same-origin access for the message's HTML. The
            // open pixel is left out, so reading a caught message here is not counted as an open.
            <iframe
              sandbox=""
              srcDoc={shownHtml ?? ''}
              title={`HTML body of "${mail.subject || 'message'}"`}
              className="h-[60vh] min-h-80 w-full rounded-md border bg-white"
              referrerPolicy="no-referrer"
              data-testid="mail-html-frame"
            />
          ) : (
            <p className="text-sm text-muted-foreground">This message has no HTML part.</p>
          )}
        </TabsContent>
        <TabsContent value="text">
          {mail.text ? (
            <pre
              className="max-h-[60vh] overflow-auto rounded-md border bg-muted/40 p-4 font-mono text-sm whitespace-pre-wrap break-words"
              data-testid="mail-text"
            >
              {mail.text}
            </pre>
          ) : (
            <p className="text-sm text-muted-foreground">This message has no plain-text part.</p>
          )}
        </TabsContent>
        <TabsContent value="headers">
          <div className="max-h-[60vh] overflow-auto rounded-md border">
            <Table data-testid="mail-headers">
              <TableHeader>
                <TableRow>
                  <TableHead className="w-48">Header</TableHead>
                  <TableHead>Value</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {mail.headers.map((header, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: headers repeat (Received, DKIM-Signature…) and have no id
                  <TableRow key={`${index}-${header.key}`}>
                    <TableCell className="align-top font-mono text-xs font-medium">{header.key}</TableCell>
                    <TableCell className="font-mono text-xs break-all whitespace-pre-wrap">
                      {header.value}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </TabsContent>

        {links.length > 0 && (
          <section aria-labelledby="mail-links-heading" className="space-y-2 pt-2" data-testid="mail-links">
            <h3 id="mail-links-heading" className="flex items-center gap-2 text-sm font-medium">
              <Link2 className="size-4 text-muted-foreground" aria-hidden="true" />
              Links in this message
            </h3>
            <ul className="space-y-1">
              {links.map((link) => (
                <li key={link}>
                  <a
                    href={link}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex max-w-full items-center gap-1.5 text-sm text-primary underline-offset-4 hover:underline"
                  >
                    <span className="truncate">{link}</span>
                    <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        )}
      </Tabs>
    </article>
  );
}
