import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { FilterSelect } from './filter-select';

const render = (value: string | undefined) =>
  renderToStaticMarkup(
    <FilterSelect
      value={value}
      onChange={() => {}}
      allLabel="All plans"
      options={['starter', 'professional'] as const}
      optionLabel={(plan) => ({ starter: 'Starter', professional: 'Professional' })[plan]}
      className="w-full sm:w-36"
      aria-label="Plan"
      data-testid="orders-plan-filter"
    />,
  );

describe('FilterSelect', () => {
  it('names and sizes its trigger as given', () => {
    const html = render(undefined);
    expect(html).toMatch(/<button[^>]*aria-label="Plan"/);
    expect(html).toContain('data-testid="orders-plan-filter"');
    expect(html).toContain('w-full sm:w-36');
  });
});
