import type { SenderAccount } from '@shared/sending';
import { Loader2, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SendWarnings } from '@/components/send-warnings';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage } from '@/lib/errors';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sends the variant, rendered for a sample contact, to the user (or another address) through one account. */
export function TestSendDialog({
  open,
  onOpenChange,
  variantKey,
  accounts,
  preferredAccountIds,
  defaultTo,
  dirty,
  onSend,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  variantKey: string;
  accounts: SenderAccount[];
  /** The campaign's own sender accounts come first. */
  preferredAccountIds: string[];
  defaultTo: string;
  dirty: boolean;
  /** Answers the test's warnings (unknown merge tags, placeholders): the dialog stays open to show them. */
  onSend: (input: { senderAccountId: string; to: string }) => Promise<readonly string[]>;
}) {
  const usable = [...accounts].sort(
    (a, b) => Number(preferredAccountIds.includes(b.id)) - Number(preferredAccountIds.includes(a.id)),
  );
  const [accountId, setAccountId] = useState('');
  const [to, setTo] = useState(defaultTo);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [warnings, setWarnings] = useState<readonly string[]>([]);
  const chosen = accountId || usable.find((account) => account.status === 'active')?.id || '';

  const submit = async () => {
    setError(null);
    if (!chosen) {
      setError('Connect a sender account first');
      return;
    }
    if (!EMAIL.test(to.trim())) {
      setError('Enter a valid email address');
      return;
    }
    setPending(true);
    setWarnings([]);
    try {
      const found = await onSend({ senderAccountId: chosen, to: to.trim() });
      if (found.length > 0) setWarnings(found);
      else onOpenChange(false);
    } catch (failure) {
      setError(getErrorMessage(failure, 'The test email was not sent. Please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent data-testid="test-send-dialog">
        <DialogHeader>
          <DialogTitle>Send a test of variant {variantKey}</DialogTitle>
          <DialogDescription>
            Merge tags are filled in for a sample contact. {dirty ? 'Your changes are saved first.' : ''}
          </DialogDescription>
        </DialogHeader>
        {usable.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            You have no sender account yet.{' '}
            <Link to="/settings#sender-accounts" className="text-primary underline">
              Connect one in Settings
            </Link>{' '}
            to send tests and campaigns.
          </p>
        ) : (
          <form
            className="space-y-4"
            id="test-send-form"
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <div className="space-y-1">
              <Label htmlFor="test-send-account">Send through</Label>
              <Select value={chosen} onValueChange={setAccountId}>
                <SelectTrigger id="test-send-account" className="w-full" data-testid="test-send-account">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {usable.map((account) => (
                    <SelectItem key={account.id} value={account.id} disabled={account.status !== 'active'}>
                      {account.label} · {account.fromEmail}
                      {account.status !== 'active' ? ` (${account.status})` : ''}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="test-send-to">Send to</Label>
              <Input
                id="test-send-to"
                type="email"
                value={to}
                onChange={(event) => setTo(event.target.value)}
                data-testid="test-send-to"
              />
            </div>
          </form>
        )}
        <SendWarnings warnings={warnings} title="The test was sent, but fix this before launching" />
        {error && (
          <p className="text-sm text-destructive" role="alert" data-testid="test-send-error">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button
            type="submit"
            form="test-send-form"
            disabled={pending || usable.length === 0}
            data-testid="test-send-submit"
          >
            {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
            Send test
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
