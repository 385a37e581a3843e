import type { ColumnDef } from '@tanstack/react-table';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable } from './data-table';

interface Firm {
  id: string;
  name: string;
}

const rows: Firm[] = [
  { id: 'a', name: 'Kora Foods' },
  { id: 'b', name: 'Sun Traders' },
];

// No accessor, as the list screens write them: the server sorts, so the column needs none.
const columns: ColumnDef<Firm>[] = [
  { id: 'company', header: 'Company', enableSorting: true, cell: ({ row }) => row.original.name },
  { id: 'city', header: 'City', cell: () => 'Lagos' },
];

describe('DataTable', () => {
  it('gives a column that opts into sorting a sort button, marked with the current direction', () => {
    const html = renderToStaticMarkup(
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(firm) => firm.id}
        sort={{ id: 'company', desc: true }}
        onSortChange={() => {}}
        empty={{ title: 'None' }}
      />,
    );
    expect(html).toContain('data-testid="sort-company"');
    expect(html).toContain('aria-sort="descending"');
    expect(html).not.toContain('data-testid="sort-city"');
  });

  it('offers no sort button when the screen handles no sort', () => {
    const html = renderToStaticMarkup(
      <DataTable columns={columns} rows={rows} getRowId={(firm) => firm.id} empty={{ title: 'None' }} />,
    );
    expect(html).not.toContain('data-testid="sort-company"');
  });

  it('names the row checkboxes and the empty state as the screen asks', () => {
    const selection = {
      selected: new Set(['b']),
      onChange: () => {},
      rowLabel: (firm: Firm) => `Select ${firm.name}`,
      allLabel: 'Select every firm on this page',
    };
    const html = renderToStaticMarkup(
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(firm) => firm.id}
        selection={selection}
        empty={{ title: 'None' }}
        rowTestId="firm-row"
      />,
    );
    expect(html).toContain('aria-label="Select Kora Foods"');
    expect(html).toContain('aria-label="Select every firm on this page"');
    expect(html.match(/data-state="selected"/g)).toHaveLength(1);

    const empty = renderToStaticMarkup(
      <DataTable
        columns={columns}
        rows={[]}
        getRowId={(firm) => firm.id}
        empty={{ title: 'No firms', testId: 'firms-empty' }}
        testId="firms-table"
      />,
    );
    expect(empty).toContain('data-testid="firms-empty"');
    expect(empty).not.toContain('firms-table-empty');
  });
});
