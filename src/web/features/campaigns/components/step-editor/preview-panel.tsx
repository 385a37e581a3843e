import type { VariantKey } from '@shared/campaigns';
import { AlertTriangle, Eye, Loader2, Monitor, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getErrorMessage } from '@/lib/errors';
import { cn } from '@/lib/utils';
import type { PreviewRequest, StepPreview } from '../../api/steps';

export interface PreviewContact {
  email: string;
  name: string;
}

const SAMPLE = '__sample__';
const OTHER = '__other__';

/** A sandboxed frame (no scripts, no same-origin) showing an email's HTML. */
function EmailFrame({ html, device, title }: { html: string; device: 'desktop' | 'mobile'; title: string }) {
  return (
    <div className="flex justify-center rounded-md border bg-muted/40 p-2">
      <iframe
        title={title}
        srcDoc={html}
        sandbox=""
        referrerPolicy="no-referrer"
        className={cn('h-[28rem] rounded bg-white', device === 'mobile' ? 'w-[375px] max-w-full' : 'w-full')}
        data-testid="preview-frame"
      />
    </div>
  );
}

/**
 * "Preview as" a contact of the audience ([PERS] POST /api/campaigns/:id/preview): the rendered subject
 * and body, the fallbacks that filled missing fields and any merge tag nobody can fill. Unsaved edits are
 * saved first (the server renders the saved step, exactly as it will send it).
 */
export function PreviewPanel({
  variantKey,
  contacts,
  contactsLoading,
  dirty,
  canPreview,
  unavailableReason,
  onPreview,
  initialPreview = null,
}: {
  variantKey: VariantKey;
  contacts: PreviewContact[];
  contactsLoading: boolean;
  dirty: boolean;
  canPreview: boolean;
  unavailableReason?: string;
  onPreview: (request: Omit<PreviewRequest, 'stepId'>) => Promise<StepPreview>;
  /** A preview made just before this editor opened (saving a new step moves to its own address). */
  initialPreview?: (StepPreview & { variantKey: VariantKey }) | null;
}) {
  const [choice, setChoice] = useState(SAMPLE);
  const [otherEmail, setOtherEmail] = useState('');
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
  const [preview, setPreview] = useState<(StepPreview & { variantKey: VariantKey }) | null>(initialPreview);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const stale = preview !== null && (preview.variantKey !== variantKey || dirty);
  const shown = preview;

  const run = async () => {
    setError(null);
    const email = choice === OTHER ? otherEmail.trim() : choice === SAMPLE ? undefined : choice;
    if (choice === OTHER && !email) {
      setError('Type the address of a contact in this campaign');
      return;
    }
    setPending(true);
    try {
      const result = await onPreview(email ? { variantKey, email } : { variantKey, sample: true });
      setPreview({ ...result, variantKey });
    } catch (failure) {
      setError(getErrorMessage(failure, 'The preview could not be made. Please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <Card className="gap-4 py-4" data-testid="preview-panel">
      <CardHeader className="px-4">
        <CardTitle className="flex items-center gap-2 text-base">
          <Eye className="size-4" aria-hidden="true" />
          Preview
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 px-4">
        {unavailableReason ? (
          <p className="text-sm text-muted-foreground">{unavailableReason}</p>
        ) : (
          <>
            <div className="space-y-1">
              <Label htmlFor="preview-contact">Preview as</Label>
              <Select value={choice} onValueChange={setChoice}>
                <SelectTrigger id="preview-contact" className="w-full" data-testid="preview-contact">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={SAMPLE}>A sample contact</SelectItem>
                  {contacts.map((contact) => (
                    <SelectItem key={contact.email} value={contact.email}>
                      {contact.name ? `${contact.name} · ${contact.email}` : contact.email}
                    </SelectItem>
                  ))}
                  <SelectItem value={OTHER}>Another contact (type the address)…</SelectItem>
                </SelectContent>
              </Select>
              {contactsLoading && (
                <p className="text-xs text-muted-foreground">Loading the audience's contacts…</p>
              )}
            </div>
            {choice === OTHER && (
              <Input
                type="email"
                value={otherEmail}
                onChange={(event) => setOtherEmail(event.target.value)}
                placeholder="contact@example.com"
                aria-label="Address of the contact to preview as"
                data-testid="preview-other-email"
              />
            )}
            <Button
              onClick={run}
              disabled={!canPreview || pending}
              className="w-full"
              data-testid="preview-run"
            >
              {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Eye aria-hidden="true" />}
              {dirty ? `Save and preview variant ${variantKey}` : `Preview variant ${variantKey}`}
            </Button>
          </>
        )}

        {error && (
          <Alert variant="destructive" data-testid="preview-error">
            <AlertTriangle aria-hidden="true" />
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        )}

        {shown && (
          <div className={cn('space-y-3', stale && 'opacity-60')} data-testid="preview-result">
            {stale && (
              <p className="text-xs text-muted-foreground">
                This preview is of an earlier version
                {shown.variantKey !== variantKey ? ` (variant ${shown.variantKey})` : ''}.
              </p>
            )}
            {shown.unknownTags.length > 0 && (
              <Alert variant="destructive" data-testid="preview-unknown-tags">
                <AlertTriangle aria-hidden="true" />
                <AlertTitle>Unknown merge tags</AlertTitle>
                <AlertDescription>
                  {shown.unknownTags.join(', ')} — nobody in the audience has these fields. Fix them before
                  launching.
                </AlertDescription>
              </Alert>
            )}
            {shown.syntaxErrors.length > 0 && (
              <Alert variant="destructive" data-testid="preview-syntax-errors">
                <AlertTriangle aria-hidden="true" />
                <AlertTitle>Merge tags that cannot be read</AlertTitle>
                <AlertDescription>{shown.syntaxErrors.join('; ')}</AlertDescription>
              </Alert>
            )}
            <p className="text-xs text-muted-foreground" data-testid="preview-contact-shown">
              {shown.sample ? 'As a sample contact' : 'As'}{' '}
              {[shown.contact.firstName, shown.contact.lastName].filter(Boolean).join(' ') ||
                shown.contact.email}
              {shown.contact.company ? ` · ${shown.contact.company}` : ''}
            </p>
            {shown.removedLinks.length > 0 && (
              <Alert variant="warning" data-testid="preview-removed-links">
                <AlertTriangle aria-hidden="true" />
                <AlertTitle>
                  {shown.removedLinks.length === 1
                    ? 'A link is removed from this copy'
                    : `${shown.removedLinks.length} links are removed from this copy`}
                </AlertTitle>
                <AlertDescription>
                  <ul className="list-disc space-y-0.5 pl-5">
                    {shown.removedLinks.slice(0, 8).map((line, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the same link may be removed twice
                      <li key={i} className="break-all">
                        {line}
                      </li>
                    ))}
                  </ul>
                </AlertDescription>
              </Alert>
            )}
            {shown.fallbacksUsed.length > 0 && (
              <p className="text-sm text-muted-foreground" data-testid="preview-fallbacks">
                Fallback used for: {shown.fallbacksUsed.join(', ')}
              </p>
            )}
            <div className="space-y-1">
              <p className="text-xs font-medium text-muted-foreground uppercase">Subject</p>
              <p className="text-sm font-medium break-words" data-testid="preview-subject">
                {shown.subject}
              </p>
            </div>
            <Tabs defaultValue="html">
              <div className="flex items-center justify-between gap-2">
                <TabsList>
                  <TabsTrigger value="html">Email</TabsTrigger>
                  <TabsTrigger value="text">Plain text</TabsTrigger>
                </TabsList>
                <div className="flex gap-1">
                  <Button
                    variant={device === 'desktop' ? 'secondary' : 'ghost'}
                    size="icon-sm"
                    aria-label="Desktop width"
                    aria-pressed={device === 'desktop'}
                    onClick={() => setDevice('desktop')}
                  >
                    <Monitor aria-hidden="true" />
                  </Button>
                  <Button
                    variant={device === 'mobile' ? 'secondary' : 'ghost'}
                    size="icon-sm"
                    aria-label="Phone width"
                    aria-pressed={device === 'mobile'}
                    onClick={() => setDevice('mobile')}
                  >
                    <Smartphone aria-hidden="true" />
                  </Button>
                </div>
              </div>
              <TabsContent value="html">
                <EmailFrame
                  html={shown.html}
                  device={device}
                  title={`Preview of variant ${shown.variantKey}`}
                />
              </TabsContent>
              <TabsContent value="text">
                <pre
                  className="max-h-[28rem] overflow-auto rounded-md border bg-muted/40 p-3 text-xs whitespace-pre-wrap"
                  data-testid="preview-text"
                >
                  {shown.text}
                </pre>
              </TabsContent>
            </Tabs>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** The admin twin has no preview endpoint: it shows the saved body as written, tags unrendered. */
export function RawBodyPreview({ subject, html }: { subject: string; html: string }) {
  return (
    <Card className="gap-4 py-4" data-testid="raw-preview">
      <CardHeader className="px-4">
        <CardTitle className="text-base">As written</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 px-4">
        <p className="text-xs text-muted-foreground">
          Merge tags and spintax are shown as the user wrote them.
        </p>
        <p className="text-sm font-medium break-words">{subject}</p>
        <EmailFrame html={html} device="desktop" title="The email as written" />
      </CardContent>
    </Card>
  );
}
