import { CalendarX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useCancelScheduledNewsletter } from '../api/newsletters';

/** Super admins: stop a scheduled send (it goes back to the owner's drafts; the audit log records it). */
export function CancelScheduleButton({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelScheduledNewsletter();
  return (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        <CalendarX className="size-4" /> Cancel send
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Cancel the scheduled send of “${name}”?`}
        description="It goes back to the owner's drafts. The owner can schedule it again."
        confirmLabel="Cancel send"
        pending={cancel.isPending}
        destructive
        onConfirm={async () => {
          try {
            await cancel.mutateAsync(id);
            toast({ title: 'Scheduled send cancelled' });
            setOpen(false);
          } catch (err) {
            toast({
              title: 'Could not cancel',
              description: getErrorMessage(err, 'Try again.'),
              variant: 'destructive',
            });
          }
        }}
      />
    </>
  );
}
