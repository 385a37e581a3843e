import { zodResolver } from '@hookform/resolvers/zod';
import type { SenderAccount } from '@shared/sending';
import { AlertCircle, Send } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { useSendSenderTestEmail } from '../../api/sender-accounts';

const sendTestSchema = z.object({
  to: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address')),
});
type SendTestInput = z.input<typeof sendTestSchema>;
type SendTestOutput = z.output<typeof sendTestSchema>;

/** Sends one real email through the account, to the user by default, so they can see how it lands. */
export function SendTestEmailDialog({
  account,
  defaultTo,
  onOpenChange,
}: {
  /** The account to send through; the dialog is open while it is set. */
  account: SenderAccount | null;
  defaultTo: string;
  onOpenChange: (open: boolean) => void;
}) {
  const send = useSendSenderTestEmail();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SendTestInput, unknown, SendTestOutput>({
    resolver: zodResolver(sendTestSchema),
    defaultValues: { to: defaultTo },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill each time it opens
  useEffect(() => {
    if (!account) return;
    send.reset();
    setFailure(null);
    form.reset({ to: defaultTo });
  }, [account?.id]);

  const submit = form.handleSubmit(({ to }) => {
    if (!account) return;
    setFailure(null);
    send.mutate(
      { id: account.id, to },
      {
        onSuccess: () => {
          toast({
            title: 'Test email sent',
            description: `Sent from ${account.fromEmail} to ${to}. It can take a minute to arrive; check the spam folder too.`,
          });
          onOpenChange(false);
        },
        onError: (error) => {
          const problem = parseApiError(error).data?.errors?.find((item) => item.path.endsWith('to'));
          if (problem) form.setError('to', { type: 'server', message: problem.message });
          else setFailure(getErrorMessage(error, 'The email could not be sent. Please try again.'));
        },
      },
    );
  });

  return (
    <Dialog open={Boolean(account)} onOpenChange={(next) => !send.isPending && onOpenChange(next)}>
      <DialogContent data-testid="send-test-email-dialog">
        <DialogHeader>
          <DialogTitle>Send a test email</DialogTitle>
          <DialogDescription>
            {account
              ? `A short email from ${account.fromName} <${account.fromEmail}>, sent the way campaigns are.`
              : ''}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={submit} noValidate className="grid gap-4">
            <FormField
              control={form.control}
              name="to"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Send to</FormLabel>
                  <FormControl>
                    <Input {...field} type="email" inputMode="email" autoFocus data-testid="send-test-to" />
                  </FormControl>
                  <FormDescription>Your own address, or a colleague's on another provider.</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            {failure && (
              <Alert variant="destructive" data-testid="send-test-error">
                <AlertCircle aria-hidden="true" />
                <AlertTitle>Not sent</AlertTitle>
                <AlertDescription>{failure}</AlertDescription>
              </Alert>
            )}
            <DialogFooter>
              <Button
                type="button"
                variant="ghost"
                onClick={() => onOpenChange(false)}
                disabled={send.isPending}
              >
                Cancel
              </Button>
              <Button type="submit" disabled={send.isPending} data-testid="send-test-submit">
                <Send aria-hidden="true" />
                {send.isPending ? 'Sending…' : 'Send test email'}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
