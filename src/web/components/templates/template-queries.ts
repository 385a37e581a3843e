import type { Template, TemplateCategory, TemplateKind, TemplateScope } from '@shared/templates';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildQueryString, getJson } from '@/lib/http';

/** Every template query sits under one of these prefixes, so a save invalidates them all. */
export const templatesQueryKey = ['/api/templates'] as const;
export const publicTemplatesQueryKey = ['/api/public/templates'] as const;
export const adminTemplatesQueryKey = ['/api/admin/templates'] as const;

export interface TemplateSearch {
  q?: string;
  category?: TemplateCategory | '';
  kind?: TemplateKind;
  scope?: TemplateScope;
}

/** The library and (signed in) the user's own templates; `source` picks the endpoint. */
export function useTemplates(search: TemplateSearch, source: 'user' | 'public' | 'admin' = 'user') {
  const base =
    source === 'public'
      ? '/api/public/templates'
      : source === 'admin'
        ? '/api/admin/templates'
        : '/api/templates';
  const query = buildQueryString({
    q: search.q?.trim(),
    category: search.category,
    kind: search.kind,
    scope: source === 'user' ? search.scope : undefined,
  });
  return useQuery<Template[]>({
    queryKey: [base, query],
    queryFn: ({ signal }) => getJson(`${base}${query}`, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useTemplate(id: string | null | undefined, source: 'user' | 'public' = 'user') {
  const base = source === 'public' ? '/api/public/templates' : '/api/templates';
  return useQuery<Template>({
    queryKey: [base, id],
    queryFn: ({ signal }) => getJson(`${base}/${encodeURIComponent(id ?? '')}`, signal),
    enabled: Boolean(id),
  });
}
