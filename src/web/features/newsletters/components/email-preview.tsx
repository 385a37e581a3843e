import { Monitor, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * The email as a client shows it, in a sandboxed frame (no scripts, no access to the app), at desktop
 * width or a phone's. Merge tags are shown as written: they are filled in per recipient when sent.
 */
export function EmailPreview({ html, subject }: { html: string; subject: string }) {
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
  return (
    <div className="flex h-full flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0 truncate text-sm">
          <span className="text-muted-foreground">Subject: </span>
          <span className="font-medium">{subject || '(no subject yet)'}</span>
        </p>
        <div className="inline-flex rounded-md border" role="group" aria-label="Preview size">
          <Button
            type="button"
            size="sm"
            variant={device === 'desktop' ? 'secondary' : 'ghost'}
            className="rounded-r-none"
            aria-pressed={device === 'desktop'}
            onClick={() => setDevice('desktop')}
            data-testid="preview-desktop"
          >
            <Monitor className="size-4" /> Desktop
          </Button>
          <Button
            type="button"
            size="sm"
            variant={device === 'mobile' ? 'secondary' : 'ghost'}
            className="rounded-l-none"
            aria-pressed={device === 'mobile'}
            onClick={() => setDevice('mobile')}
            data-testid="preview-mobile"
          >
            <Smartphone className="size-4" /> Mobile
          </Button>
        </div>
      </div>
      <div className="flex min-h-[480px] flex-1 justify-center overflow-auto rounded-md border bg-muted/40 p-2">
        <iframe
          title="Email preview"
          sandbox=""
          srcDoc={html}
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
