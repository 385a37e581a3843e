import { zodResolver } from '@hookform/resolvers/zod';
import {
  type PlatformSettings,
  type ProviderStatus,
  platformSettingsSchema,
  type SettingsChange,
} from '@shared/platform-settings';
import { CheckCircle2, History, Loader2, XCircle } from 'lucide-react';
import { type ReactNode, useEffect, useId } from 'react';
import { Controller, type FieldValues, type Path, type UseFormReturn, useForm } from 'react-hook-form';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import { usePlatformSettings, useSavePlatformSettings } from '../api/platform-settings';

type Section = keyof PlatformSettings;

const SECTION_TITLES: Record<Section, string> = {
  company: 'Company identity',
  systemMail: 'System mail',
  support: 'Support addresses',
  senderDefaults: 'New sender accounts',
  tracking: 'Tracking domain',
  signups: 'Sign-ups',
  features: 'Features',
};

/** /admin/settings: the platform's settings, one card per section, each saved (and audited) on its own. */
export default function AdminSettingsPage() {
  const query = usePlatformSettings();
  const data = query.data;

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6" data-testid="admin-settings-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Platform settings</h1>
        <p className="text-muted-foreground">
          How Tambari presents itself and what new accounts start with. Every change is recorded in the audit
          log.
          {data?.updatedAt && (
            <>
              {' '}
              Last changed {formatRelative(data.updatedAt)}
              {data.updatedBy ? ` by ${data.updatedBy}` : ''}.
            </>
          )}
        </p>
      </header>

      {query.isError && !data ? (
        <QueryError
          title="Settings could not be loaded"
          error={query.error}
          onRetry={() => query.refetch()}
        />
      ) : !data ? (
        <div className="space-y-4">
          {Array.from({ length: 3 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={index} className="h-48 w-full" />
          ))}
        </div>
      ) : (
        <>
          <CompanySection settings={data.settings} />
          <SupportSection settings={data.settings} />
          <SenderDefaultsSection settings={data.settings} />
          <TrackingSection settings={data.settings} />
          <SignupsSection settings={data.settings} />
          <FeaturesSection settings={data.settings} />
          <ProvidersCard providers={data.providers} />
          <HistoryCard history={data.history} />
        </>
      )}
    </div>
  );
}

/** A section's form: its own fields, validated by the shared schema, saved alone. */
function useSectionForm<S extends Section>(section: S, current: PlatformSettings[S]) {
  const save = useSavePlatformSettings();
  const form = useForm<PlatformSettings[S]>({
    // biome-ignore lint/suspicious/noExplicitAny: one schema per section; the resolver's generics cannot follow S.
    resolver: zodResolver(platformSettingsSchema.shape[section] as any) as never,
    defaultValues: current as never,
  });
  // A save (here or in another tab) moves the form to what is stored.
  useEffect(() => {
    form.reset(current as never);
  }, [current, form]);
  const onSubmit = form.handleSubmit((values) =>
    save.mutate({ [section]: values } as Partial<PlatformSettings>, {
      onSuccess: () => toast({ title: 'Saved', description: `${SECTION_TITLES[section]} updated.` }),
      onError: (error) =>
        toast({
          title: 'Not saved',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    }),
  );
  return { form, onSubmit, saving: save.isPending };
}

function SectionCard({
  section,
  description,
  onSubmit,
  saving,
  dirty,
  children,
}: {
  section: Section;
  description: ReactNode;
  onSubmit: () => void;
  saving: boolean;
  dirty: boolean;
  children: ReactNode;
}) {
  return (
    <Card data-testid={`settings-section-${section}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
        noValidate
      >
        <CardHeader>
          <CardTitle>
            <h2>{SECTION_TITLES[section]}</h2>
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4 pt-4">{children}</CardContent>
        <CardFooter className="justify-end pt-4">
          <Button type="submit" disabled={saving || !dirty} data-testid={`settings-save-${section}`}>
            {saving && <Loader2 className="animate-spin" aria-hidden="true" />}
            Save
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function Field({
  label,
  error,
  hint,
  children,
  id,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
  id: string;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && !error && <p className="text-xs text-muted-foreground">{hint}</p>}
      {error && (
        <p className="text-sm text-destructive" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Text and number inputs bound to a section form, with its error under them. */
function TextField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  type = 'text',
  multiline,
}: {
  form: UseFormReturn<T>;
  name: Path<T>;
  label: string;
  hint?: string;
  type?: 'text' | 'email' | 'url' | 'number';
  multiline?: boolean;
}) {
  const id = useId();
  const error = name
    .split('.')
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown> | undefined)?.[key],
      form.formState.errors,
    ) as { message?: string } | undefined;
  const registered = type === 'number' ? form.register(name, { valueAsNumber: true }) : form.register(name);
  return (
    <Field id={id} label={label} hint={hint} error={error?.message}>
      {multiline ? (
        <Textarea
          id={id}
          rows={3}
          aria-invalid={Boolean(error)}
          {...registered}
          data-testid={`settings-${name}`}
        />
      ) : (
        <Input
          id={id}
          type={type}
          inputMode={type === 'number' ? 'numeric' : undefined}
          aria-invalid={Boolean(error)}
          {...registered}
          data-testid={`settings-${name}`}
        />
      )}
    </Field>
  );
}

function SwitchField<T extends FieldValues>({
  form,
  name,
  label,
  description,
}: {
  form: UseFormReturn<T>;
  name: Path<T>;
  label: string;
  description: string;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Switch
            id={id}
            checked={Boolean(field.value)}
            onCheckedChange={field.onChange}
            data-testid={`settings-${name}`}
          />
        )}
      />
    </div>
  );
}

function CompanySection({ settings }: { settings: PlatformSettings }) {
  const company = useSectionForm('company', settings.company);
  const mail = useSectionForm('systemMail', settings.systemMail);
  return (
    <>
      <SectionCard
        section="company"
        description="The footer of every system email (password resets, receipts, notices) carries this name and postal address."
        onSubmit={company.onSubmit}
        saving={company.saving}
        dirty={company.form.formState.isDirty}
      >
        <TextField form={company.form} name="name" label="Company name" />
        <TextField form={company.form} name="postalAddress" label="Postal address" multiline />
        <TextField
          form={company.form}
          name="website"
          label="Website"
          type="url"
          hint="Optional, e.g. https://tambari.africa"
        />
      </SectionCard>
      <SectionCard
        section="systemMail"
        description="The From name of system emails. The address itself is SMTP_FROM from the environment."
        onSubmit={mail.onSubmit}
        saving={mail.saving}
        dirty={mail.form.formState.isDirty}
      >
        <TextField form={mail.form} name="fromName" label="From name" />
      </SectionCard>
    </>
  );
}

function SupportSection({ settings }: { settings: PlatformSettings }) {
  const { form, onSubmit, saving } = useSectionForm('support', settings.support);
  return (
    <SectionCard
      section="support"
      description="Where customers write. The support address is in the footer of every system email."
      onSubmit={onSubmit}
      saving={saving}
      dirty={form.formState.isDirty}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="email" label="Support email" type="email" />
        <TextField form={form} name="billingEmail" label="Billing email" type="email" />
      </div>
    </SectionCard>
  );
}

function SenderDefaultsSection({ settings }: { settings: PlatformSettings }) {
  const { form, onSubmit, saving } = useSectionForm('senderDefaults', settings.senderDefaults);
  return (
    <SectionCard
      section="senderDefaults"
      description="What a new sender account starts with; its owner can change them. Existing accounts keep theirs."
      onSubmit={onSubmit}
      saving={saving}
      dirty={form.formState.isDirty}
    >
      <TextField
        form={form}
        name="dailyCap"
        label="Daily sending limit"
        type="number"
        hint="1–300 emails a day"
      />
      <SwitchField
        form={form}
        name="warmupEnabled"
        label="Warm-up on"
        description="New accounts ramp up from a small daily volume to their limit."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          form={form}
          name="warmupStart"
          label="Warm-up: first day"
          type="number"
          hint="Emails on day one"
        />
        <TextField
          form={form}
          name="warmupIncrement"
          label="Warm-up: added each day"
          type="number"
          hint="1–50 more emails each day"
        />
      </div>
    </SectionCard>
  );
}

function TrackingSection({ settings }: { settings: PlatformSettings }) {
  const { form, onSubmit, saving } = useSectionForm('tracking', settings.tracking);
  return (
    <SectionCard
      section="tracking"
      description="Open and click links of campaigns that name no tracking domain of their own point here (over https). Empty: the app's own address. Point the domain's DNS at this server first."
      onSubmit={onSubmit}
      saving={saving}
      dirty={form.formState.isDirty}
    >
      <TextField form={form} name="domain" label="Tracking domain" hint="e.g. track.example.com" />
    </SectionCard>
  );
}

function SignupsSection({ settings }: { settings: PlatformSettings }) {
  const { form, onSubmit, saving } = useSectionForm('signups', settings.signups);
  return (
    <SectionCard
      section="signups"
      description="Closed: the sign-up form shows the message below and the API refuses new accounts. Existing customers sign in as usual."
      onSubmit={onSubmit}
      saving={saving}
      dirty={form.formState.isDirty}
    >
      <SwitchField
        form={form}
        name="open"
        label="Sign-ups open"
        description="Anyone may create an account."
      />
      <TextField form={form} name="closedMessage" label="Message while closed" />
    </SectionCard>
  );
}

function FeaturesSection({ settings }: { settings: PlatformSettings }) {
  const { form, onSubmit, saving } = useSectionForm('features', settings.features);
  return (
    <SectionCard
      section="features"
      description="Switch optional features on or off for every user."
      onSubmit={onSubmit}
      saving={saving}
      dirty={form.formState.isDirty}
    >
      <SwitchField
        form={form}
        name="aiWriting"
        label="AI writing"
        description="The Write with AI buttons in the editors (they also need an AI provider, below)."
      />
    </SectionCard>
  );
}

function ProvidersCard({ providers }: { providers: ProviderStatus[] }) {
  return (
    <Card data-testid="settings-providers">
      <CardHeader>
        <CardTitle>
          <h2>Providers</h2>
        </CardTitle>
        <CardDescription>
          Set in the server's environment (see the Deploy runbook); shown here as present or absent, never
          their keys.
        </CardDescription>
      </CardHeader>
      <CardContent className="pt-4">
        <ul className="divide-y">
          {providers.map((provider) => (
            <li
              key={provider.id}
              className="flex flex-col gap-1 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4"
              data-testid={`provider-${provider.id}`}
            >
              <div>
                <p className="font-medium">{provider.name}</p>
                <p className="text-sm text-muted-foreground">{provider.detail}</p>
              </div>
              {provider.configured ? (
                <Badge className="shrink-0 gap-1">
                  <CheckCircle2 className="size-3.5" aria-hidden="true" />
                  Configured
                </Badge>
              ) : (
                <Badge variant="outline" className="shrink-0 gap-1">
                  <XCircle className="size-3.5" aria-hidden="true" />
                  Not configured
                </Badge>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

function HistoryCard({ history }: { history: SettingsChange[] }) {
  return (
    <Card data-testid="settings-history">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <History className="size-4" aria-hidden="true" />
            Recent changes
          </h2>
        </CardTitle>
        <CardDescription>From the audit log: who changed what, from which value to which.</CardDescription>
      </CardHeader>
      <CardContent className="pt-4">
        {history.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="settings-history-empty">
            No changes yet: every setting has its default.
          </p>
        ) : (
          <ol className="space-y-3">
            {history.map((change) => (
              <li key={change.id} className="rounded-lg border p-3 text-sm" data-testid="settings-change">
                <p className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-medium">
                    {SECTION_TITLES[change.section as Section] ?? change.section}
                  </span>
                  <time
                    className="text-xs text-muted-foreground"
                    dateTime={change.at}
                    title={formatDateTime(change.at)}
                  >
                    {formatRelative(change.at)} · {change.actorEmail ?? 'unknown'}
                  </time>
                </p>
                <ul className="mt-1 space-y-0.5 text-muted-foreground">
                  {Object.entries(change.changes).map(([field, { before, after }]) => (
                    <li key={field} className="break-words">
                      <span className="font-mono text-xs text-foreground">{field}</span>:{' '}
                      {describeValue(before)} →{' '}
                      <span className="text-foreground">{describeValue(after)}</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
