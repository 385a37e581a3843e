import { Archive, ExternalLink, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CopyButton } from '@/components/copy-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import {
  useNewsletterArchive,
  useRegenerateNewsletterArchive,
  useSetNewsletterArchive,
} from '../api/newsletters';

/**
 * "Public archive": one page, at an address only you hand out, listing the sent newsletters you chose
 * to show, newest first. Off until turned on.
 */
export function ArchiveCard() {
  const id = useId();
  const query = useNewsletterArchive();
  const setEnabled = useSetNewsletterArchive();
  const regenerate = useRegenerateNewsletterArchive();
  const [confirming, setConfirming] = useState(false);
  if (!query.data) return null;
  const archive = query.data;

  const toggle = async (enabled: boolean) => {
    try {
      await setEnabled.mutateAsync(enabled);
      toast({ title: enabled ? 'Public archive is on' : 'Public archive is off' });
    } catch (err) {
      toast({
        title: 'Could not change the archive',
        description: getErrorMessage(err, 'Try again.'),
        variant: 'destructive',
      });
    }
  };

  return (
    <Card data-testid="archive-card">
      <CardContent className="space-y-3">
        <div className="flex flex-wrap items-start gap-3">
          <Archive className="mt-0.5 size-5 text-muted-foreground" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <Label htmlFor={`${id}-on`} className="font-medium">
              Public archive
            </Label>
            <p className="text-sm text-muted-foreground">
              A page listing the sent newsletters you choose to show (“Show in my public archive”), with a
              link to each one’s web version.
            </p>
          </div>
          <Switch
            id={`${id}-on`}
            checked={archive.enabled}
            disabled={setEnabled.isPending}
            onCheckedChange={toggle}
            data-testid="archive-enabled"
          />
        </div>
        {archive.url && (
          <div className="flex flex-wrap items-center gap-2">
            <Input
              readOnly
              value={archive.url}
              aria-label="Public archive address"
              className="min-w-0 flex-1 font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
              data-testid="archive-url"
            />
            <CopyButton value={archive.url} label="Copy the archive address" testId="archive-copy" />
            <Button
              asChild
              variant="ghost"
              size="icon-sm"
              aria-label="Open the archive"
              title="Open the archive"
            >
              <a href={archive.url} target="_blank" rel="noreferrer">
                <ExternalLink aria-hidden="true" />
              </a>
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => setConfirming(true)}
              disabled={regenerate.isPending}
            >
              <RefreshCw className="size-4" /> New address
            </Button>
          </div>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Give the archive a new address?"
        description="The current address stops working; anyone with the old link sees “not available”."
        confirmLabel="New address"
        onConfirm={async () => {
          try {
            await regenerate.mutateAsync();
            toast({ title: 'The archive has a new address' });
          } catch (err) {
            toast({
              title: 'Could not change the address',
              description: getErrorMessage(err, 'Try again.'),
              variant: 'destructive',
            });
          }
        }}
      />
    </Card>
  );
}
