import type { Newsletter } from '@shared/newsletters';
import { Loader2, MailCheck } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { SendWarnings } from '@/components/send-warnings';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useAuth } from '@/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useTestSendNewsletter } from '../api/newsletters';
import { useListsAndSenders } from './send-dialog';

/** A copy to yourself (or a colleague) through one of your sender accounts, before the real send. */
export function TestSendDialog({
  newsletter,
  beforeSend,
}: {
  newsletter: Newsletter;
  beforeSend: () => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const { user } = useAuth();
  const ids = useId();
  const { senders } = useListsAndSenders(open);
  const [senderId, setSenderId] = useState('');
  const [to, setTo] = useState('');
  const [asContact, setAsContact] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<readonly string[]>([]);
  const testSend = useTestSendNewsletter();

  useEffect(() => {
    if (!open) return;
    setError(null);
    setTo((current) => current || user?.email || '');
    const first = senders.data?.find((s) => s.status === 'active') ?? senders.data?.[0];
    if (!senderId && first) setSenderId(first.id);
  }, [open, senders.data, senderId, user?.email]);

  const submit = async () => {
    setError(null);
    setWarnings([]);
    if (!(await beforeSend())) return;
    try {
      const result = await testSend.mutateAsync({
        id: newsletter.id,
        senderAccountId: senderId,
        to: to.trim() || undefined,
        asContact: asContact.trim() || undefined,
      });
      toast({ title: 'Test sent', description: `Check ${to.trim() || 'your inbox'} in a minute.` });
      // The dialog stays open on what the real send would refuse, so it can be read.
      if (result.warnings.length > 0) setWarnings(result.warnings);
      else setOpen(false);
    } catch (err) {
      setError(getErrorMessage(err, 'The test could not be sent.'));
    }
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" data-testid="test-send">
          <MailCheck className="size-4" /> Send a test
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Send a test</DialogTitle>
          <DialogDescription>
            The message your recipients get — footer, plain-text part and unsubscribe headers included —
            personalised as a contact of the audience lists. Only the subject starts with [Test].
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor={`${ids}-sender`}>Send from</Label>
            <Select value={senderId} onValueChange={setSenderId}>
              <SelectTrigger id={`${ids}-sender`} className="w-full">
                <SelectValue
                  placeholder={senders.data?.length === 0 ? 'No sender accounts yet' : 'Choose an account'}
                />
              </SelectTrigger>
              <SelectContent>
                {(senders.data ?? []).map((account) => (
                  <SelectItem key={account.id} value={account.id}>
                    {account.fromName} &lt;{account.fromEmail}&gt;
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${ids}-to`}>Send to</Label>
            <Input id={`${ids}-to`} type="email" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${ids}-as`}>Personalise as</Label>
            <Input
              id={`${ids}-as`}
              type="email"
              value={asContact}
              placeholder="A contact's email (the lists' first contact if empty)"
              onChange={(e) => setAsContact(e.target.value)}
              data-testid="test-send-as"
            />
          </div>
          <SendWarnings warnings={warnings} title="The test was sent, but fix this before sending" />
          {error && (
            <Alert variant="destructive">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          )}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            type="button"
            onClick={submit}
            disabled={!senderId || testSend.isPending}
            data-testid="newsletter-test-send-submit"
          >
            {testSend.isPending && <Loader2 className="size-4 animate-spin" />} Send test
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
