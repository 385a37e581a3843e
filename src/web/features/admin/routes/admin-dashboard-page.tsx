import { PLAN_IDS, PLAN_NAMES } from '@shared/plans';
import { ROLE_LABELS, ROLES } from '@shared/roles';
import { ArrowRight, Ban, Inbox, MonitorSmartphone, UserPlus, Users } from 'lucide-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';
import { useAdminOverview } from '../api/get-admin-overview';
import { useAuditLog } from '../api/get-audit-log';
import { AuditLogTable } from '../components/audit-log-table';
import { BreakdownCard } from '../components/breakdown-card';
import { ContactMessagesCard } from '../components/contact-messages-card';
import { SignupsChart } from '../components/signups-chart';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import { fillSignupDays, summariseSignups } from '../lib/signups';

const RECENT_AUDIT_ROWS = 10;

const SHORTCUTS = [
  {
    title: 'Users',
    description: 'Search accounts, change roles and plans, suspend or restore.',
    href: '/admin/users',
    icon: Users,
    testId: 'admin-link-users',
  },
  {
    title: 'Dev Mailbox',
    description: 'Read the system emails the app sent while no SMTP server is configured.',
    href: '/admin/dev-mailbox',
    icon: Inbox,
    testId: 'admin-link-dev-mailbox',
  },
] as const;

function Shortcuts() {
  return (
    <nav aria-label="Admin shortcuts" className="grid gap-4 sm:grid-cols-2">
      {SHORTCUTS.map((shortcut) => (
        <Link
          key={shortcut.href}
          to={shortcut.href}
          data-testid={shortcut.testId}
          className="group flex items-center gap-4 rounded-xl border bg-card p-5 shadow-sm outline-none transition-colors hover:border-primary/40 hover:bg-secondary/40 focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <shortcut.icon className="size-5" aria-hidden="true" />
          </span>
          <span className="min-w-0 flex-1">
            <span className="block font-medium">{shortcut.title}</span>
            <span className="block text-sm text-muted-foreground">{shortcut.description}</span>
          </span>
          <ArrowRight
            className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5"
            aria-hidden="true"
          />
        </Link>
      ))}
    </nav>
  );
}

function OverviewSection() {
  const overview = useAdminOverview();

  if (overview.isPending) {
    return (
      <div className="space-y-6" role="status" aria-label="Loading the overview">
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {[0, 1, 2, 3].map((key) => (
            <StatCardSkeleton key={key} />
          ))}
        </div>
        <div className="grid gap-6 lg:grid-cols-3">
          <Skeleton className="h-72 rounded-xl lg:col-span-2" />
          <Skeleton className="h-72 rounded-xl" />
        </div>
      </div>
    );
  }

  if (overview.isError) {
    return (
      <div className="space-y-6">
        <QueryError
          title="The overview could not be loaded"
          error={overview.error}
          onRetry={() => overview.refetch()}
          testId="admin-overview-error"
        />
        <Shortcuts />
      </div>
    );
  }

  const data = overview.data;
  const newAccounts = summariseSignups(fillSignupDays(data.signupsPerDay)).total;
  const roleRows = ROLES.map((role) => ({
    key: role,
    label: ROLE_LABELS[role],
    count: data.usersByRole[role] ?? 0,
  }));
  const planRows = PLAN_IDS.map((plan) => ({
    key: plan,
    label: PLAN_NAMES[plan],
    count: data.usersByPlan[plan] ?? 0,
  }));

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard
          label="Total users"
          value={formatNumber(data.totalUsers)}
          hint="Every account, all roles"
          icon={Users}
          testId="stat-total-users"
        />
        <StatCard
          label="New in the last 30 days"
          value={formatNumber(newAccounts)}
          hint="Accounts created"
          icon={UserPlus}
          testId="stat-new-users"
        />
        <StatCard
          label="Active sessions"
          value={formatNumber(data.activeSessions)}
          hint="Signed-in, unexpired sessions"
          icon={MonitorSmartphone}
          testId="stat-active-sessions"
        />
        <StatCard
          label="Suspended users"
          value={formatNumber(data.suspendedUsers)}
          hint={data.suspendedUsers > 0 ? 'Cannot sign in until restored' : 'No one is suspended'}
          icon={Ban}
          tone={data.suspendedUsers > 0 ? 'danger' : 'default'}
          testId="stat-suspended-users"
        />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="grid gap-6 lg:col-span-2">
          <SignupsChart points={data.signupsPerDay} />
          <Shortcuts />
        </div>
        <div className="grid gap-6">
          <BreakdownCard
            title="Users by role"
            description="Who can do what on the platform."
            rows={roleRows}
            testId="users-by-role"
          />
          <BreakdownCard
            title="Users by plan"
            description="The plan each account is on."
            rows={planRows}
            testId="users-by-plan"
          />
        </div>
      </div>
    </div>
  );
}

function RecentActivity() {
  const auditLog = useAuditLog(1, RECENT_AUDIT_ROWS);
  return (
    <Card data-testid="recent-audit-log">
      <CardHeader>
        <CardTitle>
          <h2>Recent admin activity</h2>
        </CardTitle>
        <CardDescription>The latest entries of the audit log.</CardDescription>
        <CardAction>
          <Button asChild variant="ghost" size="sm">
            <Link to="/admin/users?tab=audit">
              Full audit log
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {auditLog.isError ? (
          <QueryError
            title="The audit log could not be loaded"
            error={auditLog.error}
            onRetry={() => auditLog.refetch()}
          />
        ) : (
          <AuditLogTable
            entries={auditLog.data?.entries.slice(0, RECENT_AUDIT_ROWS)}
            loading={auditLog.isPending}
            testId="recent-audit-log-table"
          />
        )}
      </CardContent>
    </Card>
  );
}

export default function AdminDashboardPage() {
  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-dashboard-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Admin Dashboard</h1>
        <p className="text-muted-foreground">Accounts, plans and sessions across the platform.</p>
      </header>

      <OverviewSection />

      <ContactMessagesCard />

      <RecentActivity />
    </div>
  );
}
