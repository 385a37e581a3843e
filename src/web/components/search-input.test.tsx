import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { SearchInput } from './search-input';

describe('SearchInput', () => {
  it('ties a visually hidden label to the field and names the spinner when asked', () => {
    const html = renderToStaticMarkup(
      <SearchInput
        id="orders-search"
        label="Search orders"
        value="ab"
        onChange={() => {}}
        placeholder="Reference, email or name"
        busy
        busyLabel="Searching"
        data-testid="orders-search"
      />,
    );
    expect(html).toContain('<label data-slot="label" class="');
    expect(html).toMatch(/<label[^>]*for="orders-search"[^>]*>Search orders<\/label>/);
    expect(html).toMatch(/<input type="search"[^>]*id="orders-search"/);
    expect(html).toContain('data-testid="orders-search"');
    expect(html).toContain('aria-label="Searching"');
  });

  it('leaves out the label and spinner when not asked, and hides an unnamed spinner', () => {
    const quiet = renderToStaticMarkup(
      <SearchInput value="" onChange={() => {}} aria-label="Search lists" className="flex-1" />,
    );
    expect(quiet).not.toContain('<label');
    expect(quiet).not.toContain('animate-spin');
    expect(quiet).toContain('aria-label="Search lists"');
    expect(quiet).toMatch(/^<div class="relative flex-1">/);

    const busy = renderToStaticMarkup(<SearchInput value="" onChange={() => {}} busy aria-label="x" />);
    expect(busy).toMatch(
      /<svg[^>]*animate-spin[^>]*aria-hidden="true"|<svg[^>]*aria-hidden="true"[^>]*animate-spin/,
    );
  });
});
