import type { RecentCampaign, RecentNewsletter } from '@shared/campaign-stats';
import { readableSubject } from '@shared/subject-text';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Newspaper, Plus, Send } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import {
  campaignStatusBadge,
  newsletterStatusBadge,
  recipientsLabel,
  type StatusBadge,
} from '../lib/recent-display';

function StatusPill({ badge }: { badge: StatusBadge }) {
  return <Badge variant={badge.tone}>{badge.label}</Badge>;
}

function ListSkeleton() {
  return (
    <ul className="divide-y" aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <li key={row} className="flex items-center justify-between gap-3 py-3">
          <div className="space-y-2">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-3 w-32" />
          </div>
          <Skeleton className="h-5 w-16" />
        </li>
      ))}
    </ul>
  );
}

function EmptyState(props: {
  icon: ReactNode;
  title: string;
  text: string;
  action: ReactNode;
  testId: string;
}) {
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-6 py-8 text-center"
      data-testid={props.testId}
    >
      <span className="flex size-10 items-center justify-center rounded-full bg-secondary text-muted-foreground">
        {props.icon}
      </span>
      <div className="space-y-1">
        <h3 className="font-medium">{props.title}</h3>
        <p className="text-sm text-muted-foreground">{props.text}</p>
      </div>
      {props.action}
    </div>
  );
}

function RecentCard(props: {
  testId: string;
  title: string;
  description: string;
  viewAllHref: string;
  children: ReactNode;
}) {
  return (
    <Card data-testid={props.testId}>
      <CardHeader>
        <CardTitle>
          <h2>{props.title}</h2>
        </CardTitle>
        <CardDescription>{props.description}</CardDescription>
        <CardAction>
          <Button asChild variant="ghost" size="sm">
            <Link to={props.viewAllHref}>
              View all
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>{props.children}</CardContent>
    </Card>
  );
}

/** Up to 5 recent campaigns, with an empty state and a create button. */
export function RecentCampaignsCard() {
  const query = useQuery<RecentCampaign[]>({ queryKey: ['/api/user/campaigns/recent'] });
  return (
    <RecentCard
      testId="recent-campaigns"
      title="Recent Campaigns"
      description="Your latest sequences and how they are doing."
      viewAllHref="/campaigns"
    >
      {query.isPending ? (
        <ListSkeleton />
      ) : query.isError ? (
        <QueryError
          title="Recent campaigns could not be loaded"
          error={query.error}
          onRetry={() => query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <EmptyState
          testId="recent-campaigns-empty"
          icon={<Send className="size-5" aria-hidden="true" />}
          title="No campaigns yet"
          text="Write a first email and its follow-ups, pick your contacts and launch."
          action={
            <Button asChild size="sm" data-testid="recent-campaigns-create">
              <Link to="/campaigns">
                <Plus aria-hidden="true" />
                Create Campaign
              </Link>
            </Button>
          }
        />
      ) : (
        <ul className="divide-y">
          {query.data.map((campaign) => (
            <li key={campaign.id} className="py-3 first:pt-0 last:pb-0" data-testid="recent-campaign">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0 space-y-1">
                  <Link
                    to={`/campaigns/${campaign.id}`}
                    className="block truncate font-medium underline-offset-4 hover:underline"
                  >
                    {campaign.name}
                  </Link>
                  <p className="text-xs text-muted-foreground">
                    {recipientsLabel(campaign.recipientCount)} ·{' '}
                    {campaign.sentAt
                      ? `Started ${formatDate(campaign.sentAt)}`
                      : `Created ${formatDate(campaign.createdAt)}`}
                  </p>
                </div>
                <StatusPill badge={campaignStatusBadge(campaign.status)} />
              </div>
              <dl className="mt-2 flex gap-4 text-xs">
                <div className="flex gap-1">
                  <dt className="text-muted-foreground">Opened</dt>
                  <dd className="font-medium tabular-nums">{campaign.openRate}</dd>
                </div>
                <div className="flex gap-1">
                  <dt className="text-muted-foreground">Clicked</dt>
                  <dd className="font-medium tabular-nums">{campaign.clickRate}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </RecentCard>
  );
}

/** Up to 5 recent newsletters, with an empty state and a create button. */
export function RecentNewslettersCard() {
  const query = useQuery<RecentNewsletter[]>({ queryKey: ['/api/user/newsletters/recent'] });
  return (
    <RecentCard
      testId="recent-newsletters"
      title="Recent Newsletters"
      description="Newsletters and bulk emails you wrote lately."
      viewAllHref="/newsletters"
    >
      {query.isPending ? (
        <ListSkeleton />
      ) : query.isError ? (
        <QueryError
          title="Recent newsletters could not be loaded"
          error={query.error}
          onRetry={() => query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <EmptyState
          testId="recent-newsletters-empty"
          icon={<Newspaper className="size-5" aria-hidden="true" />}
          title="No newsletters yet"
          text="Send an update or an announcement to a whole list."
          action={
            <Button asChild size="sm" data-testid="recent-newsletters-create">
              <Link to="/newsletter-editor">
                <Plus aria-hidden="true" />
                Create Newsletter
              </Link>
            </Button>
          }
        />
      ) : (
        <ul className="divide-y">
          {query.data.map((newsletter) => (
            <li
              key={newsletter.id}
              className="flex items-start justify-between gap-3 py-3 first:pt-0 last:pb-0"
              data-testid="recent-newsletter"
            >
              <div className="min-w-0 space-y-1">
                <Link
                  to={`/newsletters/editor/${newsletter.id}`}
                  className="block truncate font-medium underline-offset-4 hover:underline"
                >
                  {readableSubject(newsletter.subject) || newsletter.name}
                </Link>
                <p className="text-xs text-muted-foreground">
                  {newsletter.kind === 'bulk' ? 'Bulk email' : 'Newsletter'} ·{' '}
                  {newsletter.sentAt
                    ? `${recipientsLabel(newsletter.recipientCount)} · Sent ${formatDate(newsletter.sentAt)}`
                    : newsletter.scheduledAt && newsletter.status === 'scheduled'
                      ? `For ${formatDate(newsletter.scheduledAt)}`
                      : `Created ${formatDate(newsletter.createdAt)}`}
                </p>
              </div>
              <StatusPill badge={newsletterStatusBadge(newsletter.status)} />
            </li>
          ))}
        </ul>
      )}
    </RecentCard>
  );
}
