import { ListTodo, Search, ShieldBan } from 'lucide-react';
import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BrowsePanel } from '../components/browse-panel';
import { ListsPanel } from '../components/lists-panel';
import { SuppressionPanel } from '../components/suppression-panel';
import {
  type BrowseParams,
  type LeadDiscoveryTab,
  readBrowseParams,
  writeBrowseParams,
} from '../lib/browse-params';

/** The screen's state lives in the URL: a search, a tab or a sort can be linked and survives a reload. */
function useBrowseState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => readBrowseParams(searchParams), [searchParams]);
  const latest = useRef(state);
  latest.current = state;
  const update = useCallback(
    (patch: Partial<BrowseParams>) =>
      setSearchParams(writeBrowseParams({ ...latest.current, ...patch }), { replace: true }),
    [setSearchParams],
  );
  return [state, update] as const;
}

/** /lead-discovery (Browse Contacts), with the user's lists and suppression list beside it. */
export default function LeadDiscoveryPage() {
  const [state, update] = useBrowseState();

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="lead-discovery-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Browse Contacts</h1>
        <p className="text-muted-foreground">
          Find businesses by country, city and category, see where each came from and when it was verified,
          and keep them in your own lists.
        </p>
      </header>
      <Tabs
        value={state.tab}
        onValueChange={(tab) => update({ tab: tab as LeadDiscoveryTab })}
        className="gap-4"
      >
        <TabsList>
          <TabsTrigger value="browse" data-testid="tab-browse">
            <Search aria-hidden="true" />
            Browse
          </TabsTrigger>
          <TabsTrigger value="lists" data-testid="tab-lists">
            <ListTodo aria-hidden="true" />
            My lists
          </TabsTrigger>
          <TabsTrigger value="suppression" data-testid="tab-suppression">
            <ShieldBan aria-hidden="true" />
            Suppression
          </TabsTrigger>
        </TabsList>
        <TabsContent value="browse">
          <BrowsePanel
            filters={state.filters}
            sort={state.sort}
            onFiltersChange={(filters) => update({ filters })}
            onSortChange={(sort) => update({ sort })}
          />
        </TabsContent>
        <TabsContent value="lists">
          <ListsPanel />
        </TabsContent>
        <TabsContent value="suppression">
          <SuppressionPanel />
        </TabsContent>
      </Tabs>
    </div>
  );
}
