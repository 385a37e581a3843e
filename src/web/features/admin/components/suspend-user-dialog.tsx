import { adminSuspendSchema } from '@shared/admin';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useSuspendUser } from '../api/suspend-user';

const REASON_MAX = 500;

export function SuspendUserDialog({
  user,
  open,
  onOpenChange,
}: {
  user: { id: string; email: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const suspend = useSuspendUser();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const hintId = useId();
  const errorId = useId();

  const close = (next: boolean) => {
    if (suspend.isPending) return;
    onOpenChange(next);
    if (!next) {
      setReason('');
      setError(null);
      suspend.reset();
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = adminSuspendSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'A reason is required');
      return;
    }
    setError(null);
    suspend.mutate(
      { id: user.id, reason: parsed.data.reason },
      {
        onSuccess: () => {
          toast({
            title: 'User suspended',
            description: `${user.email} is suspended and signed out everywhere.`,
          });
          onOpenChange(false);
          setReason('');
        },
        onError: (failure) => setError(getErrorMessage(failure, 'The user could not be suspended.')),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="suspend-user-dialog">
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Suspend {user.email}?</DialogTitle>
            <DialogDescription>
              They are signed out everywhere at once and cannot sign in until you restore the account. The
              reason is kept in the audit log.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={reasonId}>Reason</Label>
            <Textarea
              id={reasonId}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              maxLength={REASON_MAX}
              rows={4}
              required
              placeholder="For example: spam complaints from recipients on 12 June"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${hintId} ${errorId}` : hintId}
              disabled={suspend.isPending}
              data-testid="suspend-reason"
            />
            <p id={hintId} className="text-right text-xs text-muted-foreground tabular-nums">
              {reason.length}/{REASON_MAX}
            </p>
            {error && (
              <p id={errorId} role="alert" className="text-sm text-destructive" data-testid="suspend-error">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={suspend.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="destructive"
              disabled={suspend.isPending || reason.trim().length === 0}
              data-testid="confirm-suspend"
            >
              {suspend.isPending ? 'Suspending…' : 'Suspend user'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
