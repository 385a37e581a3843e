import type { AdminUser } from '@shared/admin';
import { ScrollText, Users } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useAdminUsers } from '../api/get-admin-users';
import { useAuditLog } from '../api/get-audit-log';
import { AuditLogTable } from '../components/audit-log-table';
import { PaginationBar } from '../components/pagination-bar';
import { UserDetailSheet } from '../components/user-detail-sheet';
import { type UserFilterValues, UsersFilters } from '../components/users-filters';
import { UsersTable } from '../components/users-table';
import {
  readUserListParams,
  USERS_PAGE_SIZE,
  type UserListParams,
  type UsersTab,
  writeUserListParams,
} from '../lib/user-list-params';

const SEARCH_DEBOUNCE_MS = 300;

type UpdateState = (patch: Partial<UserListParams>) => void;

/** The screen's state lives in the URL, so a filtered list or the audit tab can be linked and reloaded. */
function useUserListState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => readUserListParams(searchParams), [searchParams]);
  const latest = useRef({ state, setSearchParams });
  latest.current = { state, setSearchParams };
  // Stable across URL changes, so effects can depend on it without re-running on every keystroke.
  const update = useCallback<UpdateState>((patch) => {
    const { state: current, setSearchParams: set } = latest.current;
    set(writeUserListParams({ ...current, ...patch }), { replace: true });
  }, []);
  return [state, update] as const;
}

function UsersTabPanel({ state, update }: { state: UserListParams; update: UpdateState }) {
  const [searchInput, setSearchInput] = useState(state.search);
  const debouncedSearch = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  const [selected, setSelected] = useState<AdminUser | null>(null);

  // The debounced text drives the URL (and so the query); a new search starts from page 1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced value should search; the URL's own changes must not
  useEffect(() => {
    if (debouncedSearch.trim() !== state.search) update({ search: debouncedSearch, page: 1 });
  }, [debouncedSearch, update]);

  const usersQuery = useAdminUsers({
    search: state.search || undefined,
    role: state.role,
    plan: state.plan,
    status: state.status,
    page: state.page,
    pageSize: USERS_PAGE_SIZE,
  });

  const filters: UserFilterValues = { role: state.role, plan: state.plan, status: state.status };
  const filtered = Boolean(state.search || state.role || state.plan || state.status);
  const data = usersQuery.data;

  // A page past the end (after a filter change or deletions elsewhere) falls back to the last page.
  useEffect(() => {
    if (!data || usersQuery.isPlaceholderData) return;
    const lastPage = Math.max(1, Math.ceil(data.total / USERS_PAGE_SIZE));
    if (state.page > lastPage) update({ page: lastPage });
  }, [data, usersQuery.isPlaceholderData, state.page, update]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>All users</h2>
        </CardTitle>
        <CardDescription>
          Select a user to see their details, change their role or plan, or suspend them.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <UsersFilters
          search={searchInput}
          onSearchChange={setSearchInput}
          searching={
            searchInput.trim() !== state.search || (usersQuery.isFetching && usersQuery.isPlaceholderData)
          }
          filters={filters}
          onFilterChange={(next) => update({ ...next, page: 1 })}
          onClear={() => {
            setSearchInput('');
            update({ search: '', role: undefined, plan: undefined, status: undefined, page: 1 });
          }}
        />
        {usersQuery.isError && !data ? (
          <QueryError
            title="Users could not be loaded"
            error={usersQuery.error}
            onRetry={() => usersQuery.refetch()}
            testId="users-error"
          />
        ) : (
          <>
            {usersQuery.isError && (
              <QueryError
                title="The latest changes could not be loaded"
                error={usersQuery.error}
                onRetry={() => usersQuery.refetch()}
              />
            )}
            <UsersTable
              users={data?.users}
              loading={usersQuery.isPending}
              stale={usersQuery.isPlaceholderData}
              filtered={filtered}
              onSelect={setSelected}
            />
            {data && data.total > 0 && (
              <PaginationBar
                page={state.page}
                pageSize={data.pageSize || USERS_PAGE_SIZE}
                total={data.total}
                onPageChange={(page) => update({ page })}
                busy={usersQuery.isPlaceholderData}
                noun={data.total === 1 ? 'user' : 'users'}
                testId="users-pagination"
              />
            )}
          </>
        )}
      </CardContent>
      <UserDetailSheet
        userId={selected?.id ?? null}
        initialUser={selected ?? undefined}
        onClose={() => setSelected(null)}
      />
    </Card>
  );
}

function AuditTabPanel({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const auditLog = useAuditLog(page);
  const data = auditLog.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Audit log</h2>
        </CardTitle>
        <CardDescription>
          Every administrative action, newest first, with who did it and to whom.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {auditLog.isError && !data ? (
          <QueryError
            title="The audit log could not be loaded"
            error={auditLog.error}
            onRetry={() => auditLog.refetch()}
            testId="audit-log-error"
          />
        ) : (
          <>
            <div className={auditLog.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
              <AuditLogTable entries={data?.entries} loading={auditLog.isPending} skeletonRows={10} />
            </div>
            {data && data.total > 0 && (
              <PaginationBar
                page={page}
                pageSize={data.pageSize}
                total={data.total}
                onPageChange={onPageChange}
                busy={auditLog.isPlaceholderData}
                noun={data.total === 1 ? 'entry' : 'entries'}
                testId="audit-log-pagination"
              />
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

export default function AdminUsersPage() {
  const [state, update] = useUserListState();

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-users-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <p className="text-muted-foreground">
          Every account on the platform and the admin actions taken on them.
        </p>
      </header>
      <Tabs value={state.tab} onValueChange={(tab) => update({ tab: tab as UsersTab })} className="gap-4">
        <TabsList>
          <TabsTrigger value="users" data-testid="tab-users">
            <Users aria-hidden="true" />
            Users
          </TabsTrigger>
          <TabsTrigger value="audit" data-testid="tab-audit-log">
            <ScrollText aria-hidden="true" />
            Audit log
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersTabPanel state={state} update={update} />
        </TabsContent>
        <TabsContent value="audit">
          <AuditTabPanel page={state.auditPage} onPageChange={(auditPage) => update({ auditPage })} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
