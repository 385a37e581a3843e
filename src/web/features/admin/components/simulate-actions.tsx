import type { SimulatedInboundKind } from '@shared/inbound';
import { CalendarOff, MailX, Reply, UserMinus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useSimulateDevMail } from '../api/simulate-dev-mail';

const ACTIONS: { kind: SimulatedInboundKind; label: string; done: string; icon: typeof Reply }[] = [
  { kind: 'reply', label: 'Simulate reply', done: 'Reply simulated', icon: Reply },
  { kind: 'bounce', label: 'Simulate bounce', done: 'Bounce simulated', icon: MailX },
  {
    kind: 'out_of_office',
    label: 'Simulate out-of-office',
    done: 'Out-of-office simulated',
    icon: CalendarOff,
  },
  { kind: 'unsubscribe', label: 'Simulate unsubscribe', done: 'Unsubscribe simulated', icon: UserMinus },
];

/**
 * Answers a caught campaign email as its recipient might: the mail goes through the same inbound
 * processing as real replies and bounces, so a newcomer can see a sequence stop or an address suppressed.
 */
export function SimulateActions({ mailId }: { mailId: string }) {
  const simulate = useSimulateDevMail();
  const pendingKind = simulate.isPending ? simulate.variables?.kind : undefined;

  const run = (action: (typeof ACTIONS)[number]) =>
    simulate.mutate(
      { id: mailId, kind: action.kind },
      {
        onSuccess: (result) =>
          toast({
            title: result.matched ? action.done : 'Nothing to update',
            description: result.detail,
          }),
        onError: (error) =>
          toast({
            title: 'Simulation failed',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );

  return (
    <section aria-label="Simulate the recipient's answer" className="space-y-2" data-testid="mail-simulate">
      <p className="text-xs text-muted-foreground">
        Answer as the recipient (campaign emails only): runs through the real reply and bounce handling.
      </p>
      <div className="flex flex-wrap gap-2">
        {ACTIONS.map((action) => (
          <Button
            key={action.kind}
            variant="outline"
            size="sm"
            onClick={() => run(action)}
            disabled={simulate.isPending}
            data-testid={`mail-simulate-${action.kind}`}
          >
            <action.icon aria-hidden="true" />
            {pendingKind === action.kind ? 'Simulating…' : action.label}
          </Button>
        ))}
      </div>
    </section>
  );
}
