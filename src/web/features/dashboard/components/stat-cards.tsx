import type { UserStats } from '@shared/campaign-stats';
import { categoryName } from '@shared/categories';
import { useQuery } from '@tanstack/react-query';
import { type LucideIcon, Newspaper, Send, Users } from 'lucide-react';
import { Link } from 'react-router';
import { SampleDataBadge } from '@/components/contacts/contact-badges';
import { QueryError } from '@/components/query-error';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useDirectoryStats } from '@/hooks/use-directory-stats';
import { useCountries } from '@/hooks/use-reference';
import { formatNumber } from '@/lib/format';
import { availableContactsNote } from '../lib/recent-display';

interface StatCardProps {
  id: string;
  title: string;
  value: number | undefined;
  note: string;
  icon: LucideIcon;
  href?: string;
  /** Said above the number (the "Sample data" label). */
  badge?: React.ReactNode;
}

function StatCard({ id, title, value, note, icon: Icon, href, badge }: StatCardProps) {
  return (
    <Card className="gap-0 py-5" data-testid={`stat-${id}`}>
      <CardContent className="flex items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h2 className="text-sm font-medium text-muted-foreground">{title}</h2>
          {badge}
          {value === undefined ? (
            <Skeleton className="h-8 w-24" />
          ) : (
            <p
              className="text-3xl font-semibold tabular-nums tracking-tight"
              data-testid={`stat-${id}-value`}
            >
              {formatNumber(value)}
            </p>
          )}
          {href ? (
            <Link to={href} className="text-xs text-primary underline-offset-4 hover:underline">
              {note}
            </Link>
          ) : (
            <p className="text-xs text-muted-foreground">{note}</p>
          )}
        </div>
        <span
          className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary"
          aria-hidden="true"
        >
          <Icon className="size-5" />
        </span>
      </CardContent>
    </Card>
  );
}

/** The dashboard's stat cards: Available Contacts, Newsletters Sent this month, Campaigns Sent this month. */
export function StatCards() {
  const stats = useQuery<UserStats>({ queryKey: ['/api/user/stats'] });
  const directory = useDirectoryStats();
  const { byCode } = useCountries();
  if (stats.isError) {
    return (
      <QueryError
        title="Your numbers could not be loaded"
        error={stats.error}
        onRetry={() => stats.refetch()}
        testId="stat-cards-error"
      />
    );
  }
  const data = stats.data;
  const sample = directory.data?.sampleData ?? false;
  const within = data?.availableContactsIn
    ? {
        countries: data.availableContactsIn.countryCodes.map((code) => byCode.get(code)?.name ?? code),
        categories: data.availableContactsIn.categories.map(categoryName),
      }
    : null;
  return (
    <section
      aria-label="This month at a glance"
      className="grid gap-4 sm:grid-cols-3"
      data-testid="stat-cards"
    >
      <StatCard
        id="available-contacts"
        title="Available Contacts"
        value={data?.availableContacts}
        note={
          // Choosing comes first: until then nothing is available, sample data or not.
          data?.availableContactsScope === 'choose_scope'
            ? availableContactsNote('choose_scope')
            : sample
              ? 'Generated businesses for trying Tambari: none is verified'
              : data
                ? availableContactsNote(data.availableContactsScope, within)
                : 'Businesses in the directory'
        }
        badge={sample ? <SampleDataBadge /> : undefined}
        href={data?.availableContactsScope === 'choose_scope' ? '/lead-discovery' : undefined}
        icon={Users}
      />
      <StatCard
        id="newsletters-sent"
        title="Newsletters Sent"
        value={data?.newslettersSent}
        note="This month"
        icon={Newspaper}
      />
      <StatCard
        id="campaigns-sent"
        title="Campaigns Sent"
        value={data?.campaignsSent}
        note="This month"
        icon={Send}
      />
    </section>
  );
}
