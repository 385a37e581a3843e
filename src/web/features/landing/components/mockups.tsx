import { CheckCircle2, Clock, MailOpen, MousePointerClick, Reply, Send } from 'lucide-react';

import { Badge } from '@/components/ui/badge';

/* Illustrative panels for the landing page. Their figures are examples, not live data. */

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <figure
      className="w-full rounded-xl border bg-card p-5 text-card-foreground shadow-[0_20px_50px_-20px_rgba(20,60,40,0.35)]"
      aria-label={`${title} (illustration)`}
    >
      <figcaption className="mb-4 flex items-center justify-between text-sm font-medium">
        {title}
        {/* Made-up businesses and figures: said on screen, so nobody reads them as the directory's. */}
        <span className="ml-auto mr-3 text-xs font-normal text-muted-foreground" aria-hidden="true">
          Illustration
        </span>
        <span className="flex gap-1" aria-hidden="true">
          <span className="size-2 rounded-full bg-border" />
          <span className="size-2 rounded-full bg-border" />
          <span className="size-2 rounded-full bg-gold" />
        </span>
      </figcaption>
      {children}
    </figure>
  );
}

export function LeadSearchMockup() {
  const rows = [
    { name: 'Adebayo Logistics Ltd', place: 'Lagos, NG', category: 'Logistics' },
    { name: 'Kijani Agritech', place: 'Nairobi, KE', category: 'Agriculture' },
    { name: 'Osei & Partners', place: 'Accra, GH', category: 'Legal Services' },
    { name: 'Umoja Health Clinics', place: 'Kampala, UG', category: 'Healthcare' },
  ];
  return (
    <Panel title="Browse Contacts">
      <div className="mb-3 flex flex-wrap gap-2 text-xs">
        <Badge variant="secondary">Country: Nigeria +3</Badge>
        <Badge variant="secondary">Category: Logistics +3</Badge>
        <Badge variant="outline">Estimated audience 12,480</Badge>
      </div>
      <ul className="divide-y rounded-lg border text-sm">
        {rows.map((row) => (
          <li key={row.name} className="flex items-center justify-between gap-3 px-3 py-2.5">
            <div className="min-w-0">
              <p className="truncate font-medium">{row.name}</p>
              <p className="text-xs text-muted-foreground">
                {row.place} · {row.category}
              </p>
            </div>
            <Badge variant="success" className="shrink-0">
              <CheckCircle2 aria-hidden="true" /> Verified
            </Badge>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

export function CampaignMockup() {
  const steps = [
    { icon: Send, label: 'Step 1 · Introduction', detail: 'Sent to 640 contacts', status: 'Sending' },
    { icon: Clock, label: 'Wait 3 days', detail: 'Only if no reply', status: 'Scheduled' },
    {
      icon: Reply,
      label: 'Step 2 · Follow-up',
      detail: 'Hi {{firstName}}, circling back…',
      status: 'Scheduled',
    },
  ];
  return (
    <Panel title="Q3 distributor outreach">
      <ol className="space-y-3">
        {steps.map((step) => (
          <li key={step.label} className="flex items-center gap-3 rounded-lg border px-3 py-2.5">
            <span className="flex size-8 items-center justify-center rounded-md bg-secondary text-secondary-foreground">
              <step.icon className="size-4" aria-hidden="true" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium">{step.label}</p>
              <p className="truncate text-xs text-muted-foreground">{step.detail}</p>
            </div>
            <Badge variant={step.status === 'Sending' ? 'default' : 'outline'}>{step.status}</Badge>
          </li>
        ))}
      </ol>
    </Panel>
  );
}

export function AnalyticsMockup() {
  const stats = [
    { icon: Send, label: 'Sent', value: '2,480' },
    { icon: MailOpen, label: 'Opened', value: '58%' },
    { icon: MousePointerClick, label: 'Clicked', value: '14%' },
    { icon: Reply, label: 'Replied', value: '6.2%' },
  ];
  const bars = [38, 52, 44, 61, 70, 58, 76];
  return (
    <Panel title="Campaign analytics">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-lg border p-3">
            <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
              <stat.icon className="size-3.5" aria-hidden="true" />
              {stat.label}
            </dt>
            <dd className="mt-1 text-lg font-semibold">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4 flex h-24 items-end gap-2" aria-hidden="true">
        {bars.map((height, index) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed decorative chart.
            key={index}
            className="flex-1 rounded-t-sm bg-primary/80 last:bg-gold"
            style={{ height: `${height}%` }}
          />
        ))}
      </div>
      <p className="mt-3 text-xs text-muted-foreground">Revenue attributed ₦1,240,000 · ROI 34×</p>
    </Panel>
  );
}

export function RotationMockup() {
  const accounts = [
    { email: 'ada@acme-sales.ng', sent: 212 },
    { email: 'tunde@acme-sales.ng', sent: 198 },
    { email: 'amaka@acme-mail.ng', sent: 187 },
    { email: 'femi@acme-mail.ng', sent: 164 },
  ];
  return (
    <Panel title="Sender rotation · Least Used">
      <ul className="space-y-3">
        {accounts.map((account) => (
          <li key={account.email}>
            <div className="mb-1 flex justify-between text-xs">
              <span className="font-medium">{account.email}</span>
              <span className="text-muted-foreground">{account.sent} / 300 today</span>
            </div>
            <div className="h-2 rounded-full bg-muted">
              <div
                className="h-2 rounded-full bg-primary"
                style={{ width: `${(account.sent / 300) * 100}%` }}
              />
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-4 rounded-lg bg-accent px-3 py-2 text-xs text-accent-foreground">
        Today: 3,000 emails spread over 12 accounts. Next send goes to the least used inbox.
      </p>
    </Panel>
  );
}

export function TargetingMockup() {
  const filters = [
    { label: 'Countries', values: ['Nigeria', 'Ghana', 'Kenya'] },
    { label: 'Cities', values: ['Lagos', 'Abuja', 'Accra', 'Nairobi'] },
    { label: 'Categories', values: ['Logistics', 'Retail', 'Manufacturing'] },
  ];
  return (
    <Panel title="Audience builder">
      <div className="space-y-3">
        {filters.map((filter) => (
          <div key={filter.label}>
            <p className="mb-1.5 text-xs font-medium text-muted-foreground">{filter.label}</p>
            <div className="flex flex-wrap gap-1.5">
              {filter.values.map((value) => (
                <Badge key={value} variant="secondary">
                  {value}
                </Badge>
              ))}
            </div>
          </div>
        ))}
      </div>
      <div className="mt-5 flex items-end justify-between rounded-lg bg-secondary px-4 py-3">
        <div>
          <p className="text-xs text-muted-foreground">Estimated audience</p>
          <p className="text-2xl font-semibold text-secondary-foreground">8,214</p>
        </div>
        <Badge>Ready to send</Badge>
      </div>
    </Panel>
  );
}
