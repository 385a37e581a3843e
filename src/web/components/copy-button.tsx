import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/utils';

/** Copies `value` to the clipboard; the icon turns into a tick for a moment so the user sees it worked. */
export function CopyButton({
  value,
  label,
  className,
  testId,
}: {
  value: string;
  /** What is copied, for screen readers: "Copy the SPF value". */
  label: string;
  className?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 1500);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, or permission refused): say so rather than fail silently.
      toast({
        title: 'Could not copy',
        description: 'Select the text and copy it by hand.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Button
      type="button"
      variant="ghost"
      size="icon-sm"
      className={cn('shrink-0', className)}
      onClick={copy}
      aria-label={copied ? 'Copied' : label}
      title={label}
      data-testid={testId}
    >
      {copied ? <Check className="text-success" aria-hidden="true" /> : <Copy aria-hidden="true" />}
    </Button>
  );
}
