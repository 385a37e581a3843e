import { categoryName } from '@shared/categories';
import type { LeadSort } from '@shared/contacts';
import type { Lead } from '@shared/leads';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import {
  LeadProvenance,
  LeadVerification,
  ReachIcons,
  SampleDataBadge,
} from '@/components/contacts/contact-badges';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCountries } from '@/hooks/use-reference';
import { cn } from '@/lib/utils';

const SKELETON_COLUMNS = 7;

function SortButton({ sort, onSortChange }: { sort: LeadSort; onSortChange: (sort: LeadSort) => void }) {
  const active = sort === 'company_asc' || sort === 'company_desc';
  const Icon = sort === 'company_asc' ? ArrowUp : sort === 'company_desc' ? ArrowDown : ArrowUpDown;
  return (
    <button
      type="button"
      className="-ml-2 inline-flex items-center gap-1 rounded-md px-2 py-1 font-medium hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
      onClick={() => onSortChange(sort === 'company_asc' ? 'company_desc' : 'company_asc')}
      data-testid="sort-company"
    >
      Company
      <Icon className={cn('size-3.5', !active && 'text-muted-foreground')} aria-hidden="true" />
    </button>
  );
}

export function LeadsTable({
  leads,
  loading,
  stale,
  sort,
  onSortChange,
  isSelected,
  onToggle,
  pageSelection,
  onTogglePage,
}: {
  leads: Lead[] | undefined;
  loading: boolean;
  stale: boolean;
  sort: LeadSort;
  onSortChange: (sort: LeadSort) => void;
  isSelected: (id: string) => boolean;
  onToggle: (id: string, selected: boolean) => void;
  /** The header checkbox: every row on the page, some, or none. */
  pageSelection: boolean | 'indeterminate';
  onTogglePage: (selected: boolean) => void;
}) {
  const { byCode } = useCountries();
  const ariaSort = sort === 'company_asc' ? 'ascending' : sort === 'company_desc' ? 'descending' : undefined;
  return (
    <div
      className={cn('overflow-hidden rounded-lg border bg-card transition-opacity', stale && 'opacity-60')}
      data-testid="leads-table-frame"
    >
      <Table data-testid="leads-table" aria-busy={loading || stale}>
        <TableHeader>
          <TableRow className="bg-muted/40 hover:bg-muted/40">
            <TableHead className="w-10 pl-3">
              <Checkbox
                checked={pageSelection}
                onCheckedChange={(value) => onTogglePage(value === true)}
                aria-label="Select every contact on this page"
                disabled={!leads?.length}
                data-testid="select-page"
              />
            </TableHead>
            <TableHead aria-sort={ariaSort}>
              <SortButton sort={sort} onSortChange={onSortChange} />
              <span className="sr-only"> and category</span>
            </TableHead>
            <TableHead>Contact</TableHead>
            <TableHead className="hidden 2xl:table-cell">Email</TableHead>
            <TableHead>Location</TableHead>
            <TableHead className="hidden sm:table-cell">Verification</TableHead>
            <TableHead>
              <span className="sr-only">Phone and website</span>
              <span aria-hidden="true">Reach</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading || !leads
            ? Array.from({ length: 10 }, (_, row) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={row}>
                  {Array.from({ length: SKELETON_COLUMNS }, (_, column) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells
                    <TableCell key={column} className={column === 0 ? 'pl-3' : undefined}>
                      <Skeleton className={column === 0 ? 'size-4' : 'h-4 w-full max-w-28'} />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : leads.map((lead) => {
                const selected = isSelected(lead.id);
                const country = byCode.get(lead.countryCode);
                return (
                  <TableRow
                    key={lead.id}
                    data-state={selected ? 'selected' : undefined}
                    data-testid="lead-row"
                    data-lead-id={lead.id}
                  >
                    <TableCell className="pl-3">
                      <Checkbox
                        checked={selected}
                        onCheckedChange={(value) => onToggle(lead.id, value === true)}
                        aria-label={`Select ${lead.companyName}`}
                        data-testid="select-lead"
                      />
                    </TableCell>
                    <TableCell className="max-w-48 2xl:max-w-56">
                      <p className="truncate font-medium" title={lead.companyName}>
                        {lead.companyName}
                      </p>
                      <p className="truncate text-xs text-muted-foreground">{categoryName(lead.category)}</p>
                      <LeadProvenance lead={lead} />
                      {lead.sample && <SampleDataBadge className="mt-1 sm:hidden" />}
                    </TableCell>
                    <TableCell className="max-w-36 2xl:max-w-44">
                      <p className="truncate">{lead.contactName ?? '—'}</p>
                      {lead.jobTitle && (
                        <p className="truncate text-xs text-muted-foreground" title={lead.jobTitle}>
                          {lead.jobTitle}
                        </p>
                      )}
                    </TableCell>
                    <TableCell className="hidden max-w-52 truncate font-mono text-xs text-muted-foreground 2xl:table-cell">
                      {lead.email}
                    </TableCell>
                    <TableCell className="max-w-36 2xl:max-w-44">
                      <p className="truncate">
                        <span aria-hidden="true">{country?.flag ?? ''} </span>
                        {[lead.city, country?.name ?? lead.countryCode].filter(Boolean).join(', ')}
                      </p>
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">
                      <LeadVerification lead={lead} />
                    </TableCell>
                    <TableCell>
                      <ReachIcons phone={lead.phone} website={lead.website} />
                    </TableCell>
                  </TableRow>
                );
              })}
        </TableBody>
      </Table>
    </div>
  );
}
