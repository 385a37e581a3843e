import type { Database } from '@server/db/client';
import { leadScopes } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { categoryName } from '@shared/categories';
import { CONTACT_MESSAGES } from '@shared/contacts';
import { type FreePlanScopeInput, scopeChoices } from '@shared/leads';
import type { PricingPlan } from '@shared/payments';
import { eq } from 'drizzle-orm';
import type { DirectoryFilters } from '../directory/directory.service';
import { type ContactsActor, isStaff } from '../plans/plan-access.service';
import { assertWithinLimit, getPlanLimits } from '../plans/plan-limits.service';
import { plansInOrder } from '../plans/plans.service';
import { countryName } from '../reference/reference.service';

/*
 * Which part of the lead directory a user may search. The plan's countryLimit and categoryLimit decide
 * it, each on its own: -1 = every country (category), 0 = none, N = the N the user chose (the Free plan
 * allows one of each). Staff are not limited. Search, counts, adding leads to lists, campaign audiences
 * and the dashboard's Available Contacts all go through here.
 */

/** One limited side of the scope: countries or categories. */
interface Dimension {
  filter: 'country' | 'category';
  kind: 'countries' | 'categories';
  column: 'countryLimit' | 'categoryLimit';
  /** -1 all, 0 none, N the first N chosen */
  limit: number;
  /** the user's choice, cut to the limit */
  chosen: string[];
  one: string;
  many: string;
}

interface ScopeState {
  planId: string;
  planName: string;
  /** The limited dimensions (a limit of -1 is not limited). Empty: the user may search everything. */
  limited: Dimension[];
  stored: { countryCodes: string[]; categories: string[]; updatedAt: Date } | null;
}

async function loadStoredScope(db: Database, userId: string) {
  const [row] = await db.select().from(leadScopes).where(eq(leadScopes.userId, userId)).limit(1);
  return row
    ? { countryCodes: row.countryCodes, categories: row.categories, updatedAt: row.updatedAt }
    : null;
}

async function loadScopeState(db: Database, actor: ContactsActor): Promise<ScopeState> {
  const stored = await loadStoredScope(db, actor.id);
  if (isStaff(actor)) return { planId: '', planName: '', limited: [], stored };
  const limits = await getPlanLimits({ db, userId: actor.id });
  const dimensions: Dimension[] = [
    {
      filter: 'country',
      kind: 'countries',
      column: 'countryLimit',
      limit: limits.countries,
      chosen: (stored?.countryCodes ?? []).slice(0, Math.max(limits.countries, 0)),
      one: 'country',
      many: 'countries',
    },
    {
      filter: 'category',
      kind: 'categories',
      column: 'categoryLimit',
      limit: limits.categories,
      chosen: (stored?.categories ?? []).slice(0, Math.max(limits.categories, 0)),
      one: 'category',
      many: 'categories',
    },
  ];
  return {
    planId: limits.planId,
    planName: limits.planName,
    limited: dimensions.filter((d) => d.limit >= 0),
    stored,
  };
}

/** "one country and one category", "3 countries": what the plan includes of the limited dimensions. */
function includedPhrase(limited: Dimension[]): string {
  return limited.map((d) => (d.limit === 1 ? `one ${d.one}` : `${d.limit} ${d.many}`)).join(' and ');
}

/** "Nigeria, Ghana · Logistics & Freight": the choice as people read it. */
function scopeLabel(state: ScopeState): string {
  const side = (filter: Dimension['filter'], name: (value: string) => string, all: string) => {
    const dimension = state.limited.find((d) => d.filter === filter);
    return dimension ? dimension.chosen.map(name).join(', ') : all;
  };
  return `${side('country', countryName, 'all countries')} · ${side('category', categoryName, 'all categories')}`;
}

/** "Upgrade to Starter, Growth or Pro to search every country and category", or where to ask for more. */
async function upgradePhrase(db: Database, state: ScopeState, dimensions: Dimension[]): Promise<string> {
  const plans = (await plansInOrder({ db })).filter((plan) => plan.active);
  const current = plans.find((plan) => plan.id === state.planId);
  const allows = (plan: PricingPlan, d: Dimension) => plan[d.column] < 0 || plan[d.column] > d.limit;
  const better = plans.filter(
    (plan) =>
      plan.id !== state.planId &&
      plan.sortOrder > (current?.sortOrder ?? -1) &&
      dimensions.some((d) => allows(plan, d)),
  );
  if (better.length === 0) return 'Contact us if you need more';
  const names = better.map((plan) => plan.name);
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  const everything = better.every((plan) => dimensions.every((d) => plan[d.column] < 0));
  const what = everything
    ? `every ${dimensions.map((d) => d.one).join(' and ')}`
    : `more ${dimensions.map((d) => d.many).join(' and ')}`;
  return `Upgrade to ${listed} to search ${what}`;
}

/**
 * The filters a search really runs with. Within a limited dimension a search may narrow the choice but
 * not leave it: omitted → every chosen value; a value outside it → 403 naming the upgrade. A plan that
 * includes none of a dimension (limit 0) may not search the directory at all.
 */
export async function scopedFilters(options: {
  db: Database;
  actor: ContactsActor;
  filters: DirectoryFilters;
}): Promise<DirectoryFilters> {
  const { db, actor, filters } = options;
  const state = await loadScopeState(db, actor);
  if (state.limited.length === 0) return filters;

  const excluded = state.limited.find((d) => d.limit === 0);
  if (excluded) {
    const upgrade = await upgradePhrase(db, state, [excluded]);
    throw new AppError(
      'forbidden',
      CONTACT_MESSAGES.noDirectoryAccess(excluded.one, state.planName, upgrade),
      {
        reason: 'plan_limit',
        limit: excluded.kind,
        allowed: 0,
        planId: state.planId,
      },
    );
  }
  if (state.limited.some((d) => d.chosen.length === 0)) {
    throw new AppError(
      'forbidden',
      CONTACT_MESSAGES.scopeRequired(includedPhrase(state.limited), state.planName),
      { reason: 'free_scope_required' },
    );
  }
  const outside = state.limited.some((d) =>
    (filters[d.filter] ?? []).some((value) => !d.chosen.includes(value)),
  );
  if (outside) {
    const upgrade = await upgradePhrase(db, state, state.limited);
    throw new AppError(
      'forbidden',
      CONTACT_MESSAGES.outsideScope({
        included: includedPhrase(state.limited),
        planName: state.planName,
        scope: scopeLabel(state),
        upgrade,
      }),
      { reason: 'plan_restricted', scope: effectiveScope(state) },
    );
  }
  const scoped: DirectoryFilters = { ...filters };
  for (const d of state.limited) {
    scoped[d.filter] = filters[d.filter]?.length ? filters[d.filter] : d.chosen;
  }
  return scoped;
}

/** The choice that applies now: each limited dimension cut to its limit; an unlimited one applies nothing. */
function effectiveScope(state: ScopeState) {
  if (!state.stored) return null;
  const side = (filter: Dimension['filter'], stored: string[]) => {
    // Nothing limits this user: the saved choice is shown as it is (it applies again after a downgrade).
    if (state.limited.length === 0) return stored;
    const dimension = state.limited.find((d) => d.filter === filter);
    return dimension ? dimension.chosen : [];
  };
  const countryCodes = side('country', state.stored.countryCodes);
  const categories = side('category', state.stored.categories);
  return { countryCode: countryCodes[0] ?? null, category: categories[0] ?? null, countryCodes, categories };
}

/** GET /api/leads/free-plan-scope. */
export async function getLeadScope({ db, actor }: { db: Database; actor: ContactsActor }) {
  const state = await loadScopeState(db, actor);
  return {
    restricted: state.limited.length > 0,
    scope: effectiveScope(state),
    updatedAt: state.stored?.updatedAt.toISOString() ?? null,
  };
}

/**
 * PUT /api/leads/free-plan-scope: chooses the countries and categories to search. More than the plan
 * includes is refused with the plan-limit message; a limited dimension needs at least one choice.
 */
export async function setLeadScope(options: {
  db: Database;
  actor: ContactsActor;
  input: FreePlanScopeInput;
}) {
  const { db, actor } = options;
  const choices = scopeChoices(options.input);
  const state = await loadScopeState(db, actor);
  for (const d of state.limited) {
    const values = d.filter === 'country' ? choices.countryCodes : choices.categories;
    if (values.length > d.limit) {
      await assertWithinLimit({ db, userId: actor.id, limit: d.kind, used: 0, adding: values.length });
    }
    if (d.limit > 0 && values.length === 0) {
      const message = CONTACT_MESSAGES.scopeNeedsOne(d.one);
      const path = d.filter === 'country' ? 'countryCodes' : 'categories';
      throw new AppError('validation', message, { errors: [{ path, message }] });
    }
  }
  const values = { countryCodes: choices.countryCodes, categories: choices.categories, updatedAt: now() };
  await db
    .insert(leadScopes)
    .values({ userId: actor.id, ...values })
    .onConflictDoUpdate({ target: leadScopes.userId, set: values });
  return getLeadScope({ db, actor });
}

/**
 * The directory filters of the user's Available Contacts: everything (`all`), nothing yet because a
 * choice is missing (`choose_scope`), or the plan's scope (`plan_scope`, none when the plan includes none).
 */
export async function availableLeadScope({
  db,
  actor,
}: {
  db: Database;
  actor: ContactsActor;
}): Promise<
  | { scope: 'all' | 'choose_scope'; filters: DirectoryFilters }
  | { scope: 'plan_scope'; filters: DirectoryFilters | null }
> {
  const state = await loadScopeState(db, actor);
  if (state.limited.length === 0) return { scope: 'all', filters: {} };
  if (state.limited.some((d) => d.limit === 0)) return { scope: 'plan_scope', filters: null };
  if (state.limited.some((d) => d.chosen.length === 0)) return { scope: 'choose_scope', filters: {} };
  const filters: DirectoryFilters = {};
  for (const d of state.limited) filters[d.filter] = d.chosen;
  return { scope: 'plan_scope', filters };
}
