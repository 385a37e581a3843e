import type { RecentCampaign } from '@shared/campaign-stats';
import type { ContactList } from '@shared/lists';
import type { SenderAccount } from '@shared/sending';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Check, Mailbox, Rocket, Users } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const STEPS = [
  {
    id: 'connect-mail-server',
    title: 'Connect your mail server',
    description:
      'Add the SMTP account your emails go out from. Tambari checks its SPF, DKIM and DMARC records and tells you what to fix.',
    href: '/launch',
    action: 'Connect mail server',
    icon: Mailbox,
  },
  {
    id: 'choose-contacts',
    title: 'Choose contacts',
    description:
      'Pick verified businesses by country, city and category, or upload your own CSV list. Duplicates and bad addresses are caught on import.',
    href: '/lead-discovery',
    action: 'Browse contacts',
    icon: Users,
  },
  {
    id: 'create-first-campaign',
    title: 'Create your first campaign',
    description:
      'Write a first email and follow-ups with delays and merge tags, choose your sending window, then launch.',
    href: '/campaigns',
    action: 'Create campaign',
    icon: Rocket,
  },
] as const;

type StepId = (typeof STEPS)[number]['id'];

/** Which steps the account has done: a sender account, a list with contacts, a campaign. */
function useStepsDone(): Record<StepId, boolean> {
  const senders = useQuery<SenderAccount[]>({ queryKey: ['/api/sender-accounts'], staleTime: 30_000 });
  const lists = useQuery<{ lists: ContactList[] }>({ queryKey: ['/api/lists'], staleTime: 30_000 });
  const campaigns = useQuery<RecentCampaign[]>({ queryKey: ['/api/user/campaigns/recent'] });
  return {
    'connect-mail-server': (senders.data?.length ?? 0) > 0,
    'choose-contacts': (lists.data?.lists ?? []).some((list) => list.contactCount > 0),
    'create-first-campaign': (campaigns.data?.length ?? 0) > 0,
  };
}

/** Quick setup: the three steps from sign-up to a first campaign, each ticked once done. */
export function GettingStartedCard() {
  const done = useStepsDone();
  const remaining = STEPS.filter((step) => !done[step.id]).length;
  return (
    <Card data-testid="getting-started">
      <CardHeader>
        <CardTitle>
          <h2>Getting started</h2>
        </CardTitle>
        <CardDescription data-testid="getting-started-progress">
          {remaining === 0
            ? 'All three done: your first campaign is on its way.'
            : `Three steps from a new account to your first campaign; ${3 - remaining} of 3 done.`}
        </CardDescription>
        <CardAction>
          <Button asChild size="sm" data-testid="getting-started-quick-setup">
            <Link to="/launch">
              <Rocket aria-hidden="true" />
              Quick setup
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        <ol className="relative space-y-6">
          {STEPS.map((step, index) => (
            <li
              key={step.id}
              className="relative flex gap-4"
              data-testid={`getting-started-${step.id}`}
              data-done={done[step.id] ? 'true' : 'false'}
            >
              {index < STEPS.length - 1 && (
                <span
                  aria-hidden="true"
                  className="absolute top-10 bottom-[-1.5rem] left-[1.125rem] w-px bg-border"
                />
              )}
              <span
                className={
                  done[step.id]
                    ? 'relative flex size-9 shrink-0 items-center justify-center rounded-full border-2 border-primary bg-primary text-primary-foreground'
                    : 'relative flex size-9 shrink-0 items-center justify-center rounded-full border-2 border-primary/30 bg-background text-sm font-semibold text-primary'
                }
                aria-hidden="true"
              >
                {done[step.id] ? <Check className="size-4" /> : index + 1}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                <div className="space-y-1">
                  <h3 className="flex items-center gap-2 font-medium">
                    <step.icon className="size-4 text-muted-foreground" aria-hidden="true" />
                    <span>
                      <span className="sr-only">
                        Step {index + 1}
                        {done[step.id] ? ' (done)' : ''}:{' '}
                      </span>
                      {step.title}
                    </span>
                  </h3>
                  <p className="text-sm text-muted-foreground">{step.description}</p>
                </div>
                <Button asChild variant="outline" size="sm" className="shrink-0 self-start">
                  <Link to={step.href}>
                    {step.action}
                    <ArrowRight aria-hidden="true" />
                  </Link>
                </Button>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
