import {
  TEST_RUN_STEP_GAP_SECONDS,
  TEST_RUNS_PER_HOUR,
  type TestRun,
  type TestRunStepState,
} from '@shared/test-runs';
import { CheckCircle2, Clock, FlaskConical, Loader2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { SendWarnings } from '@/components/send-warnings';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
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
import { formatDateTime } from '@/lib/format';
import { isTestRunActive, useLatestTestRun, useStartTestRun, useTestRunAddresses } from '../../api/test-runs';

const STATE_LABELS: Record<TestRunStepState, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

function StateIcon({ state }: { state: TestRunStepState }) {
  if (state === 'sent') return <CheckCircle2 className="size-4 text-success" aria-hidden="true" />;
  if (state === 'failed') return <XCircle className="size-4 text-destructive" aria-hidden="true" />;
  if (state === 'sending') return <Loader2 className="size-4 animate-spin" aria-hidden="true" />;
  return <Clock className="size-4 text-muted-foreground" aria-hidden="true" />;
}

/** Each step of a run: its subject and where it is (queued, sending, sent, failed with the reason). */
function TestRunProgress({ run }: { run: TestRun }) {
  return (
    <ol className="space-y-2" data-testid="test-run-steps">
      {run.steps.map((step) => (
        <li
          key={step.position}
          className="flex items-start gap-2 text-sm"
          data-testid="test-run-step"
          data-state={step.state}
        >
          <StateIcon state={step.state} />
          <div className="min-w-0 flex-1">
            <p className="truncate">
              <span className="text-muted-foreground">Step {step.position} · </span>
              {step.subject}
            </p>
            {step.state === 'failed' && step.error && (
              <p className="text-xs text-destructive">{step.error}</p>
            )}
            {step.state === 'queued' && (
              <p className="text-xs text-muted-foreground">Goes at {formatDateTime(step.sendAfter)}</p>
            )}
          </div>
          <Badge variant={step.state === 'failed' ? 'destructive' : 'outline'}>
            {STATE_LABELS[step.state]}
          </Badge>
        </li>
      ))}
    </ol>
  );
}

function TestRunDialog({
  campaignId,
  open,
  onOpenChange,
}: {
  campaignId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const addresses = useTestRunAddresses(campaignId, open);
  const start = useStartTestRun(campaignId);
  const [to, setTo] = useState('');
  const [contact, setContact] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<readonly string[]>([]);
  const chosen = to || addresses.data?.addresses[0] || '';

  const submit = async () => {
    setError(null);
    setWarnings([]);
    try {
      const run = await start.mutateAsync({ to: chosen || undefined, email: contact.trim() || undefined });
      // The run goes anyway; the dialog stays open on what the launch would refuse, so it can be read.
      if (run.warnings && run.warnings.length > 0) setWarnings(run.warnings);
      else onOpenChange(false);
    } catch (failure) {
      setError(getErrorMessage(failure, 'The test run did not start. Please try again.'));
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !start.isPending && onOpenChange(next)}>
      <DialogContent data-testid="test-run-dialog">
        <DialogHeader>
          <DialogTitle>Test run of the sequence</DialogTitle>
          <DialogDescription>
            Every step goes to your own address, one a minute ({TEST_RUN_STEP_GAP_SECONDS} s apart), through
            this campaign's sender account, with "[Test]" in the subject. Follow-ups that reply in the thread
            arrive in the same conversation. Nothing is sent to your contacts and the campaign's numbers do
            not change; each email counts towards the account's daily limit. Up to {TEST_RUNS_PER_HOUR} test
            runs an hour.
          </DialogDescription>
        </DialogHeader>
        <form
          className="space-y-4"
          id="test-run-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className="space-y-1">
            <Label htmlFor="test-run-to">Send to</Label>
            <Select value={chosen} onValueChange={setTo}>
              <SelectTrigger id="test-run-to" className="w-full" data-testid="test-run-to">
                <SelectValue placeholder="Your email address" />
              </SelectTrigger>
              <SelectContent>
                {(addresses.data?.addresses ?? []).map((address) => (
                  <SelectItem key={address} value={address}>
                    {address}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p className="text-xs text-muted-foreground">
              Your login email or one of your sender accounts' addresses.
            </p>
          </div>
          <div className="space-y-1">
            <Label htmlFor="test-run-contact">Fill merge tags as (optional)</Label>
            <Input
              id="test-run-contact"
              type="email"
              placeholder="The first contact of the audience"
              value={contact}
              onChange={(event) => setContact(event.target.value)}
              data-testid="test-run-contact"
            />
          </div>
        </form>
        <SendWarnings warnings={warnings} title="The test run started, but fix this before launching" />
        {error && (
          <p className="text-sm text-destructive" role="alert" data-testid="test-run-error">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={start.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="test-run-form" disabled={start.isPending} data-testid="test-run-submit">
            {start.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <FlaskConical aria-hidden="true" />
            )}
            Start test run
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The steps page's "Test run": start one, and the latest run's progress, step by step. */
export function TestRunPanel({ campaignId, disabled }: { campaignId: string; disabled?: boolean }) {
  const latest = useLatestTestRun(campaignId);
  const [open, setOpen] = useState(false);
  const run = latest.data?.run ?? null;
  const active = isTestRunActive(run);
  return (
    <Card data-testid="test-run-panel">
      <CardHeader className="flex flex-row items-start justify-between gap-3 space-y-0">
        <div className="space-y-1">
          <CardTitle>
            <h2>Test run</h2>
          </CardTitle>
          <CardDescription>
            {run
              ? `To ${run.to}, written for ${run.sample ? 'a sample contact' : run.contactEmail}${
                  run.senderEmail ? `, from ${run.senderEmail}` : ''
                } · started ${formatDateTime(run.createdAt)}`
              : 'See the whole sequence in your own inbox within minutes, before you launch.'}
          </CardDescription>
        </div>
        <Button
          variant="outline"
          onClick={() => setOpen(true)}
          disabled={disabled || active}
          data-testid="test-run-open"
        >
          <FlaskConical aria-hidden="true" />
          Test run
        </Button>
      </CardHeader>
      {run && (
        <CardContent>
          <TestRunProgress run={run} />
        </CardContent>
      )}
      <TestRunDialog campaignId={campaignId} open={open} onOpenChange={setOpen} />
    </Card>
  );
}
