import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useNewsletter, useUpdateNewsletter } from '../api/newsletters';

/** "Show in my public archive": saved at once, and still changeable after the send. */
export function ArchiveSwitch({ id }: { id: string }) {
  const ids = useId();
  const newsletter = useNewsletter(id);
  const update = useUpdateNewsletter();
  if (!newsletter.data) return null;
  const checked = newsletter.data.inArchive;
  return (
    <div className="flex items-center gap-2">
      <Switch
        id={`${ids}-archive`}
        checked={checked}
        disabled={update.isPending}
        onCheckedChange={async (inArchive) => {
          try {
            await update.mutateAsync({ id, inArchive });
          } catch (err) {
            toast({
              title: 'Could not change the archive setting',
              description: getErrorMessage(err, 'Try again.'),
              variant: 'destructive',
            });
          }
        }}
        data-testid="newsletter-in-archive"
      />
      <Label htmlFor={`${ids}-archive`} className="text-sm font-normal">
        Show in my public archive
      </Label>
    </div>
  );
}
