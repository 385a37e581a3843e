import { isPlanId, type PlanId } from '@shared/plans';
import { ROLES, type Role } from '@shared/roles';

export const USERS_PAGE_SIZE = 25;

export type UsersTab = 'users' | 'audit';

export interface UserListParams {
  tab: UsersTab;
  search: string;
  role?: Role;
  plan?: PlanId;
  status?: 'active' | 'suspended';
  page: number;
  auditPage: number;
}

function positiveInt(value: string | null): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 1 ? parsed : 1;
}

/** Reads the users screen's state from the URL, ignoring anything a hand-edited link got wrong. */
export function readUserListParams(params: URLSearchParams): UserListParams {
  const role = params.get('role');
  const plan = params.get('plan');
  const status = params.get('status');
  return {
    tab: params.get('tab') === 'audit' ? 'audit' : 'users',
    search: params.get('q') ?? '',
    role: role && (ROLES as readonly string[]).includes(role) ? (role as Role) : undefined,
    plan: isPlanId(plan) ? plan : undefined,
    status: status === 'active' || status === 'suspended' ? status : undefined,
    page: positiveInt(params.get('page')),
    auditPage: positiveInt(params.get('auditPage')),
  };
}

/** The inverse of {@link readUserListParams}; defaults are left out so links stay short. */
export function writeUserListParams(state: UserListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (state.tab !== 'users') params.set('tab', state.tab);
  if (state.search.trim()) params.set('q', state.search.trim());
  if (state.role) params.set('role', state.role);
  if (state.plan) params.set('plan', state.plan);
  if (state.status) params.set('status', state.status);
  if (state.page > 1) params.set('page', String(state.page));
  if (state.auditPage > 1) params.set('auditPage', String(state.auditPage));
  return params;
}
