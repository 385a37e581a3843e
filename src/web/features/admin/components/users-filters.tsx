import { PLAN_IDS, PLAN_NAMES, type PlanId } from '@shared/plans';
import { ROLE_LABELS, ROLES, type Role } from '@shared/roles';
import { X } from 'lucide-react';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

export type StatusFilter = 'active' | 'suspended';

export interface UserFilterValues {
  role?: Role;
  plan?: PlanId;
  status?: StatusFilter;
}

const ALL = 'all';

export function UsersFilters({
  search,
  onSearchChange,
  searching,
  filters,
  onFilterChange,
  onClear,
}: {
  search: string;
  onSearchChange: (value: string) => void;
  searching: boolean;
  filters: UserFilterValues;
  onFilterChange: (next: UserFilterValues) => void;
  onClear: () => void;
}) {
  const active = Boolean(search || filters.role || filters.plan || filters.status);
  return (
    <search className="flex flex-col gap-3 lg:flex-row lg:items-center" aria-label="Filter users">
      <SearchInput
        className="flex-1 lg:max-w-sm"
        value={search}
        onChange={onSearchChange}
        placeholder="Search by name or email"
        aria-label="Search users by name or email"
        maxLength={200}
        busy={searching}
        data-testid="users-search"
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3 lg:flex">
        <Select
          value={filters.role ?? ALL}
          onValueChange={(value) =>
            onFilterChange({ ...filters, role: value === ALL ? undefined : (value as Role) })
          }
        >
          <SelectTrigger className="w-full lg:w-44" aria-label="Filter by role" data-testid="filter-role">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All roles</SelectItem>
            {ROLES.map((role) => (
              <SelectItem key={role} value={role}>
                {ROLE_LABELS[role]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select
          value={filters.plan ?? ALL}
          onValueChange={(value) =>
            onFilterChange({ ...filters, plan: value === ALL ? undefined : (value as PlanId) })
          }
        >
          <SelectTrigger className="w-full lg:w-36" aria-label="Filter by plan" data-testid="filter-plan">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All plans</SelectItem>
            {PLAN_IDS.map((plan) => (
              <SelectItem key={plan} value={plan}>
                {PLAN_NAMES[plan]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select
          value={filters.status ?? ALL}
          onValueChange={(value) =>
            onFilterChange({ ...filters, status: value === ALL ? undefined : (value as StatusFilter) })
          }
        >
          <SelectTrigger className="w-full lg:w-36" aria-label="Filter by status" data-testid="filter-status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All statuses</SelectItem>
            <SelectItem value="active">Active</SelectItem>
            <SelectItem value="suspended">Suspended</SelectItem>
          </SelectContent>
        </Select>
      </div>
      {active && (
        <Button
          variant="ghost"
          onClick={onClear}
          className="self-start lg:self-auto"
          data-testid="clear-filters"
        >
          <X aria-hidden="true" />
          Clear
        </Button>
      )}
    </search>
  );
}
