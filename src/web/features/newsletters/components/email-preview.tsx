import { AlertTriangle, Loader2, Monitor, Smartphone } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/errors';
import { cn } from '@/lib/utils';
import { usePersonalizedPreview } from '../api/personalized-preview';
import { mergeTagWarnings, previewContactLabel, removedLinkWarnings } from '../lib/preview';

type Mode = 'template' | 'personalized';

/** Two or more buttons of which one is on, like a segmented control. */
function Toggle<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: ReactNode; testId: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <div className="inline-flex rounded-md border" role="group" aria-label={label}>
      {options.map((option, index) => (
        <Button
          key={option.value}
          type="button"
          size="sm"
          variant={value === option.value ? 'secondary' : 'ghost'}
          className={cn(index > 0 && 'rounded-l-none', index < options.length - 1 && 'rounded-r-none')}
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          data-testid={option.testId}
        >
          {option.label}
        </Button>
      ))}
    </div>
  );
}

/**
 * The email as a client shows it, in a sandboxed frame (no scripts, no access to the app), at desktop
 * width or a phone's. Merge tags are shown as written ("Template"); with `personalize`, "Personalised"
 * shows them filled in for a contact of the audience lists by the server, as a send would.
 */
export function EmailPreview({
  html,
  subject,
  personalize,
}: {
  html: string;
  subject: string;
  /** The audience lists to preview as; leave out where the preview must not ask the server (admin). */
  personalize?: { listIds: readonly string[] };
}) {
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
  const [mode, setMode] = useState<Mode>('template');
  const personalized = Boolean(personalize) && mode === 'personalized';
  const listIds = personalize?.listIds ?? [];
  const { query, updating } = usePersonalizedPreview({ subject, html, listIds, enabled: personalized });
  // Until the first answer arrives (or when it fails) the template stays on screen.
  const shown = personalized ? query.data : undefined;
  const warnings = shown ? [...mergeTagWarnings(shown), ...removedLinkWarnings(shown)] : [];

  return (
    <div className="flex h-full flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 truncate text-sm">
          <span className="text-muted-foreground">Subject: </span>
          <span className="font-medium" data-testid="preview-subject">
            {(shown ? shown.subject : subject) || '(no subject yet)'}
          </span>
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {personalize && (
            <Toggle
              label="Merge tags"
              value={mode}
              onChange={setMode}
              options={[
                { value: 'template', label: 'Template', testId: 'preview-mode-template' },
                { value: 'personalized', label: 'Personalised', testId: 'preview-mode-personalized' },
              ]}
            />
          )}
          <Toggle
            label="Preview size"
            value={device}
            onChange={setDevice}
            options={[
              {
                value: 'desktop',
                label: (
                  <>
                    <Monitor className="size-4" /> Desktop
                  </>
                ),
                testId: 'preview-desktop',
              },
              {
                value: 'mobile',
                label: (
                  <>
                    <Smartphone className="size-4" /> Mobile
                  </>
                ),
                testId: 'preview-mobile',
              },
            ]}
          />
        </div>
      </div>
      {personalized && (
        <p
          className="flex items-center gap-1.5 text-xs text-muted-foreground"
          data-testid="preview-contact-shown"
        >
          {updating && <Loader2 className="size-3 animate-spin" aria-hidden="true" />}
          {shown
            ? previewContactLabel({ ...shown, hasLists: listIds.length > 0 })
            : 'Filling in the merge tags…'}
        </p>
      )}
      {personalized && query.isError && (
        <Alert variant="destructive" data-testid="preview-personalize-error">
          <AlertTriangle aria-hidden="true" />
          <AlertDescription>
            {getErrorMessage(query.error, 'The personalised preview could not be made.')}
          </AlertDescription>
        </Alert>
      )}
      {warnings.length > 0 && (
        <Alert variant="warning" className="py-2" data-testid="preview-merge-tag-warning">
          <AlertTriangle aria-hidden="true" />
          <AlertDescription>
            {warnings.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </AlertDescription>
        </Alert>
      )}
      <div className="flex min-h-[480px] flex-1 justify-center overflow-auto rounded-md border bg-muted/40 p-2">
        <iframe
          title={shown ? 'Personalised email preview' : 'Email preview'}
          sandbox=""
          srcDoc={shown ? shown.html : html}
          data-testid="email-preview"
          className={cn(
            'h-[640px] rounded border bg-white transition-[width]',
            device === 'desktop' ? 'w-full max-w-[680px]' : 'w-[375px] max-w-full',
          )}
        />
      </div>
    </div>
  );
}
