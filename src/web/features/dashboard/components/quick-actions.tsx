import {
  ArrowRight,
  BarChart3,
  Crown,
  FileText,
  type LucideIcon,
  Newspaper,
  Search,
  Send,
} from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

interface QuickAction {
  id: string;
  title: string;
  description: string;
  href: string;
  icon: LucideIcon;
  highlight?: boolean;
}

const ACTIONS: QuickAction[] = [
  {
    id: 'browse-contacts',
    title: 'Browse Contacts',
    description: 'Search verified businesses by country, city and category.',
    href: '/lead-discovery',
    icon: Search,
  },
  {
    id: 'create-newsletter',
    title: 'Create Newsletter',
    description: 'Send an update or announcement to a whole list.',
    href: '/newsletters',
    icon: Newspaper,
  },
  {
    id: 'create-campaign',
    title: 'Create Campaign',
    description: 'Build a multi-step cold email sequence with follow-ups.',
    href: '/campaigns',
    icon: Send,
  },
  {
    id: 'browse-templates',
    title: 'Browse Templates',
    description: 'Start from proven subject lines and email copy.',
    href: '/templates',
    icon: FileText,
  },
  {
    id: 'view-analytics',
    title: 'View Analytics',
    description: 'Opens, clicks, replies, conversions and ROI.',
    href: '/analytics',
    icon: BarChart3,
  },
];

const UPGRADE: QuickAction = {
  id: 'upgrade',
  title: 'Upgrade to Premium',
  description: 'Every country and category, more sends and sender rotation.',
  href: '/upgrade',
  icon: Crown,
  highlight: true,
};

/** The Upgrade to Premium action shows only on the free plan. */
export function QuickActions({ freePlan }: { freePlan: boolean }) {
  const actions = freePlan ? [...ACTIONS, UPGRADE] : ACTIONS;
  return (
    <Card data-testid="quick-actions">
      <CardHeader>
        <CardTitle>
          <h2>Quick Actions</h2>
        </CardTitle>
        <CardDescription>Jump straight into your most common tasks.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 sm:grid-cols-2 2xl:grid-cols-3">
          {actions.map((action) => (
            <li key={action.id}>
              <Link
                to={action.href}
                data-testid={`quick-action-${action.id}`}
                className={cn(
                  'group flex h-full items-start gap-3 rounded-lg border p-4 outline-none transition-colors hover:border-primary/40 hover:bg-secondary/60 focus-visible:ring-[3px] focus-visible:ring-ring/50',
                  action.highlight && 'border-gold/50 bg-gold/10 hover:border-gold hover:bg-gold/20',
                )}
              >
                <span
                  className={cn(
                    'flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary',
                    action.highlight && 'bg-gold/25 text-gold-foreground',
                  )}
                >
                  <action.icon className="size-4" aria-hidden="true" />
                </span>
                <span className="min-w-0 flex-1 space-y-1">
                  <span className="flex items-center justify-between gap-2 font-medium">
                    {action.title}
                    <ArrowRight
                      className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5"
                      aria-hidden="true"
                    />
                  </span>
                  <span className="block text-sm text-muted-foreground">{action.description}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
