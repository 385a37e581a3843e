import type { AdminUpdatePricingPlan, PricingPlan } from '@shared/payments';
import { Loader2, Save } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
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
import { annualSaving, formatNaira } from '@/lib/billing';
import { getErrorMessage } from '@/lib/errors';
import { useAdminPricingPlans, useUpdatePricingPlan } from '../api/billing-admin';
import { parseLimitInput, parseNairaInput, parseScopeLimitInput } from '../lib/billing-list-params';

/**
 * `scope` limits are how many countries / categories of the lead directory the plan's users choose to
 * search: All (-1), None (0) or N.
 */
const LIMIT_FIELDS = [
  { key: 'campaignLimit', label: 'Campaigns a month', scope: false },
  { key: 'newsletterLimit', label: 'Newsletters a month', scope: false },
  { key: 'recipientLimit', label: 'Recipients', scope: false },
  { key: 'senderAccountLimit', label: 'Sender accounts', scope: false },
  { key: 'countryLimit', label: 'Countries', scope: true },
  { key: 'categoryLimit', label: 'Business categories', scope: true },
  { key: 'downloadLimit', label: 'Contact downloads a month', scope: false },
  { key: 'verificationLimit', label: 'Addresses verified a month', scope: false },
] as const;

type LimitKey = (typeof LIMIT_FIELDS)[number]['key'];

interface Draft {
  name: string;
  description: string;
  priceMonthly: string;
  priceAnnual: string;
  active: boolean;
  limits: Record<LimitKey, string>;
}

function nairaText(kobo: number): string {
  const naira = kobo / 100;
  return Number.isInteger(naira) ? String(naira) : naira.toFixed(2);
}

function limitText(limit: number, scope: boolean): string {
  if (limit < 0) return scope ? 'All' : 'Unlimited';
  return scope && limit === 0 ? 'None' : String(limit);
}

/** What a directory limit means for the plan's users, shown under its field. */
export function scopeLimitHint(text: string, what: 'countries' | 'categories'): string {
  const limit = parseScopeLimitInput(text);
  if (limit === null) return 'A number, None or All';
  if (limit < 0) return `Every ${what === 'countries' ? 'country' : 'category'}`;
  if (limit === 0) return 'No lead discovery';
  return limit === 1
    ? `Users choose 1 ${what === 'countries' ? 'country' : 'category'}`
    : `Users choose ${limit}`;
}

function toDraft(plan: PricingPlan): Draft {
  return {
    name: plan.name,
    description: plan.description,
    priceMonthly: nairaText(plan.priceMonthly),
    priceAnnual: nairaText(plan.priceAnnual),
    active: plan.active,
    limits: Object.fromEntries(LIMIT_FIELDS.map((f) => [f.key, limitText(plan[f.key], f.scope)])) as Record<
      LimitKey,
      string
    >,
  };
}

/** The fields that changed, in the API's units (kobo, -1 for unlimited), or the first problem found. */
export function diffPlan(
  plan: PricingPlan,
  draft: Draft,
): { changes: AdminUpdatePricingPlan } | { error: string } {
  const changes: Record<string, unknown> = {};
  if (draft.name.trim() !== plan.name) {
    if (!draft.name.trim()) return { error: 'Name is required' };
    changes.name = draft.name.trim();
  }
  if (draft.description.trim() !== plan.description) changes.description = draft.description.trim();
  const monthly = parseNairaInput(draft.priceMonthly);
  const annual = parseNairaInput(draft.priceAnnual);
  if (monthly === null) return { error: 'Enter the monthly price in naira, like 15000' };
  if (annual === null) return { error: 'Enter the annual price in naira, like 150000' };
  if (plan.id !== 'free' && (monthly === 0 || annual === 0))
    return { error: 'A paid plan needs a price above ₦0' };
  if (monthly !== plan.priceMonthly) changes.priceMonthly = monthly;
  if (annual !== plan.priceAnnual) changes.priceAnnual = annual;
  for (const field of LIMIT_FIELDS) {
    const value = field.scope
      ? parseScopeLimitInput(draft.limits[field.key])
      : parseLimitInput(draft.limits[field.key]);
    if (value === null) {
      return {
        error: field.scope
          ? `${field.label}: enter how many users choose, None (0) or All`
          : `${field.label}: enter a whole number, or Unlimited`,
      };
    }
    if (field.key === 'senderAccountLimit' && value < 1) {
      return { error: 'Sender accounts: enter a whole number of at least 1' };
    }
    if (value !== plan[field.key]) changes[field.key] = value;
  }
  if (draft.active !== plan.active) changes.active = draft.active;
  return { changes: changes as AdminUpdatePricingPlan };
}

/** The pricing plans: prices in naira (sent as kobo) and limits per plan, edited by a super admin. */
export function PricingPlansEditor() {
  const plansQuery = useAdminPricingPlans();
  if (plansQuery.isError) {
    return (
      <QueryError
        title="Plans could not be loaded"
        error={plansQuery.error}
        onRetry={() => plansQuery.refetch()}
      />
    );
  }
  if (!plansQuery.data) {
    return (
      <div className="grid gap-6 lg:grid-cols-2">
        {[0, 1, 2, 3].map((key) => (
          <Skeleton key={key} className="h-96 rounded-xl" />
        ))}
      </div>
    );
  }
  return (
    <div className="space-y-4" data-testid="pricing-plans-editor">
      <p className="text-sm text-muted-foreground">
        Prices are in naira and apply to new payments and renewals from now on; a period already paid for
        keeps its price. Type <span className="font-medium text-foreground">Unlimited</span> (or -1) for no
        limit. Countries and categories say how many of the lead directory's a user chooses to search:{' '}
        <span className="font-medium text-foreground">All</span> (-1),{' '}
        <span className="font-medium text-foreground">None</span> (0) or a number.
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        {plansQuery.data.map((plan) => (
          <PlanEditorCard key={plan.id} plan={plan} />
        ))}
      </div>
    </div>
  );
}

function PlanEditorCard({ plan }: { plan: PricingPlan }) {
  const update = useUpdatePricingPlan();
  const [draft, setDraft] = useState<Draft>(() => toDraft(plan));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const free = plan.id === 'free';

  // A saved plan comes back from the server; the form follows it.
  useEffect(() => {
    setDraft(toDraft(plan));
  }, [plan]);

  const result = diffPlan(plan, draft);
  const dirty = 'changes' in result ? Object.keys(result.changes).length > 0 : true;
  const monthlyKobo = parseNairaInput(draft.priceMonthly);
  const annualKobo = parseNairaInput(draft.priceAnnual);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const outcome = diffPlan(plan, draft);
    if ('error' in outcome) {
      setError(outcome.error);
      return;
    }
    if (Object.keys(outcome.changes).length === 0) return;
    setError(null);
    update.mutate(
      { id: plan.id, changes: outcome.changes },
      {
        onSuccess: (saved) => toast({ title: 'Plan saved', description: `${saved.name} is updated.` }),
        onError: (failure) => setError(getErrorMessage(failure, 'The plan could not be saved.')),
      },
    );
  }

  return (
    <Card data-testid={`plan-editor-${plan.id}`}>
      <form onSubmit={onSubmit} noValidate className="flex h-full flex-col gap-6">
        <CardHeader>
          <div className="flex items-center justify-between gap-3">
            <CardTitle>
              <h3 className="text-lg">{plan.name}</h3>
            </CardTitle>
            <div className="flex items-center gap-2">
              <Badge variant="outline" className="font-mono">
                {plan.id}
              </Badge>
              {!plan.active && <Badge variant="secondary">Hidden</Badge>}
            </div>
          </div>
          <CardDescription>
            {free
              ? 'The free plan: its limits apply to every account without a paid plan.'
              : plan.description}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid flex-1 gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" htmlFor={`${id}-name`}>
              <Input
                id={`${id}-name`}
                value={draft.name}
                onChange={(event) => setDraft({ ...draft, name: event.target.value })}
                maxLength={60}
              />
            </Field>
            {!free && (
              <div className="flex items-end gap-3 pb-2">
                <Switch
                  id={`${id}-active`}
                  checked={draft.active}
                  onCheckedChange={(active) => setDraft({ ...draft, active })}
                />
                <Label htmlFor={`${id}-active`}>Shown on the pricing page</Label>
              </div>
            )}
          </div>
          <Field label="Description" htmlFor={`${id}-description`}>
            <Textarea
              id={`${id}-description`}
              value={draft.description}
              onChange={(event) => setDraft({ ...draft, description: event.target.value })}
              rows={2}
              maxLength={500}
            />
          </Field>
          {!free && (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Monthly price (₦)" htmlFor={`${id}-monthly`}>
                <Input
                  id={`${id}-monthly`}
                  inputMode="decimal"
                  value={draft.priceMonthly}
                  onChange={(event) => setDraft({ ...draft, priceMonthly: event.target.value })}
                  data-testid={`plan-editor-${plan.id}-monthly`}
                />
              </Field>
              <Field
                label="Annual price (₦)"
                htmlFor={`${id}-annual`}
                hint={
                  monthlyKobo !== null && annualKobo !== null
                    ? `Saving ${formatNaira(annualSaving({ priceMonthly: monthlyKobo, priceAnnual: annualKobo }))} a year`
                    : undefined
                }
                action={
                  monthlyKobo !== null ? (
                    <button
                      type="button"
                      className="text-xs font-medium text-primary underline-offset-4 hover:underline"
                      onClick={() => setDraft({ ...draft, priceAnnual: nairaText(monthlyKobo * 10) })}
                    >
                      Set to 10 × monthly
                    </button>
                  ) : undefined
                }
              >
                <Input
                  id={`${id}-annual`}
                  inputMode="decimal"
                  value={draft.priceAnnual}
                  onChange={(event) => setDraft({ ...draft, priceAnnual: event.target.value })}
                  data-testid={`plan-editor-${plan.id}-annual`}
                />
              </Field>
            </div>
          )}
          <fieldset className="grid gap-3">
            <legend className="mb-2 text-sm font-medium">Limits</legend>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {LIMIT_FIELDS.map((field) => (
                <Field
                  key={field.key}
                  label={field.label}
                  htmlFor={`${id}-${field.key}`}
                  small
                  hint={
                    field.scope
                      ? scopeLimitHint(
                          draft.limits[field.key],
                          field.key === 'countryLimit' ? 'countries' : 'categories',
                        )
                      : undefined
                  }
                >
                  <Input
                    id={`${id}-${field.key}`}
                    value={draft.limits[field.key]}
                    onChange={(event) =>
                      setDraft({ ...draft, limits: { ...draft.limits, [field.key]: event.target.value } })
                    }
                    data-testid={`plan-editor-${plan.id}-${field.key}`}
                  />
                </Field>
              ))}
            </div>
          </fieldset>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
        </CardContent>
        <CardFooter className="justify-end gap-2">
          <Button
            type="button"
            variant="ghost"
            disabled={!dirty || update.isPending}
            onClick={() => {
              setDraft(toDraft(plan));
              setError(null);
            }}
          >
            Reset
          </Button>
          <Button
            type="submit"
            disabled={!dirty || update.isPending}
            data-testid={`plan-editor-${plan.id}-save`}
          >
            {update.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <Save aria-hidden="true" />
            )}
            Save {plan.name}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function Field({
  label,
  htmlFor,
  hint,
  action,
  small = false,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  action?: React.ReactNode;
  small?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={htmlFor} className={small ? 'text-xs text-muted-foreground' : undefined}>
        {label}
      </Label>
      {children}
      {(hint || action) && (
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
          {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
          {action}
        </div>
      )}
    </div>
  );
}
