import { PLAN_IDS, PLAN_NAMES, type PlanId } from '@shared/plans';
import { ROLE_LABELS, ROLES, type Role } from '@shared/roles';
import { X } from 'lucide-react';
import { FilterSelect } from '@/components/filter-select';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';

export type StatusFilter = 'active' | 'suspended';

export interface UserFilterValues {
  role?: Role;
  plan?: PlanId;
  status?: StatusFilter;
}

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
        <FilterSelect
          value={filters.role}
          onChange={(value) => onFilterChange({ ...filters, role: value })}
          allLabel="All roles"
          options={ROLES}
          optionLabel={(role) => ROLE_LABELS[role]}
          className="w-full lg:w-44"
          aria-label="Filter by role"
          data-testid="filter-role"
        />
        <FilterSelect
          value={filters.plan}
          onChange={(value) => onFilterChange({ ...filters, plan: value })}
          allLabel="All plans"
          options={PLAN_IDS}
          optionLabel={(plan) => PLAN_NAMES[plan]}
          className="w-full lg:w-36"
          aria-label="Filter by plan"
          data-testid="filter-plan"
        />
        <FilterSelect
          value={filters.status}
          onChange={(value) => onFilterChange({ ...filters, status: value })}
          allLabel="All statuses"
          options={['active', 'suspended'] as const}
          optionLabel={(value) => ({ active: 'Active', suspended: 'Suspended' })[value]}
          className="w-full lg:w-36"
          aria-label="Filter by status"
          data-testid="filter-status"
        />
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
