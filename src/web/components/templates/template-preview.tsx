import { fillSampleMergeTags, type Template } from '@shared/templates';
import { useMemo } from 'react';
import { cn } from '@/lib/utils';

/** An email body as its own document: plain, readable, like a mail client shows it. */
function emailDocument(bodyHtml: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0;padding:20px;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.6;color:#1f2937;background:#fff;}
p{margin:0 0 14px;}a{color:#1d4ed8;}img{max-width:100%;height:auto;}</style></head>
<body><div style="max-width:600px;margin:0 auto;">${bodyHtml}</div></body></html>`;
}

/**
 * A template as the recipient would see it, with merge tags filled from a sample contact. The frame is
 * sandboxed without scripts or same-origin access, so nothing in a body can touch the app.
 */
export function TemplatePreview({
  template,
  className,
  frameClassName,
}: {
  template: Pick<Template, 'subject' | 'bodyHtml' | 'kind' | 'name'>;
  className?: string;
  frameClassName?: string;
}) {
  const srcDoc = useMemo(() => {
    const body = fillSampleMergeTags(template.bodyHtml);
    return template.kind === 'newsletter' && /<html[\s>]/i.test(body) ? body : emailDocument(body);
  }, [template.bodyHtml, template.kind]);
  return (
    <div className={cn('flex min-h-0 flex-col overflow-hidden rounded-md border bg-background', className)}>
      <div className="border-b bg-muted/40 px-4 py-2 text-sm">
        <span className="text-muted-foreground">Subject: </span>
        <span className="font-medium" data-testid="template-preview-subject">
          {fillSampleMergeTags(template.subject)}
        </span>
      </div>
      <iframe
        title={`Preview of ${template.name}`}
        sandbox=""
        srcDoc={srcDoc}
        className={cn('h-[420px] w-full bg-white', frameClassName)}
        data-testid="template-preview-frame"
      />
      <p className="border-t px-4 py-1.5 text-xs text-muted-foreground">
        Merge tags show a sample contact (Amaka Okafor, Okafor Foods, Lagos); each recipient gets their own.
      </p>
    </div>
  );
}
