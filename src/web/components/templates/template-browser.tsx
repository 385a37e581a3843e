import {
  TEMPLATE_CATEGORIES,
  TEMPLATE_CATEGORY_LABELS,
  type Template,
  type TemplateCategory,
} from '@shared/templates';
import { FileText, Search } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

const ALL = 'all';

/** `{{ company | default: "your team" }}` → `{company}`: short enough for a card, still clearly a merge tag. */
export function shortMergeTags(text: string): string {
  return text.replace(/\{\{-?\s*([A-Za-z_][\w.]*)[^}]*\}\}/g, (_all, name: string) => `{${name}}`);
}

export function categoryLabel(category: string): string {
  return TEMPLATE_CATEGORY_LABELS[category as TemplateCategory] ?? category;
}

/** Search box and category filter; the caller keeps the values (in the URL or in state). */
export function TemplateFilters({
  q,
  category,
  onQChange,
  onCategoryChange,
  categories = TEMPLATE_CATEGORIES,
}: {
  q: string;
  category: TemplateCategory | '';
  onQChange: (q: string) => void;
  onCategoryChange: (category: TemplateCategory | '') => void;
  categories?: readonly TemplateCategory[];
}) {
  return (
    // Filtering needs the app: a prerendered page holding it loads the app at once.
    <div className="flex flex-col gap-2 sm:flex-row" data-needs-app="">
      <div className="relative flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          value={q}
          onChange={(event) => onQChange(event.target.value)}
          placeholder="Search templates: follow-up, Eid, fintech…"
          aria-label="Search templates"
          maxLength={100}
          className="pl-8"
          data-testid="template-search"
        />
      </div>
      <Select
        value={category || ALL}
        onValueChange={(value) => onCategoryChange(value === ALL ? '' : (value as TemplateCategory))}
      >
        <SelectTrigger className="w-full sm:w-56" aria-label="Category" data-testid="template-category">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All categories</SelectItem>
          {categories.map((value) => (
            <SelectItem key={value} value={value}>
              {TEMPLATE_CATEGORY_LABELS[value]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

export function TemplateCard({
  template,
  onOpen,
  selected,
}: {
  template: Template;
  onOpen: (template: Template) => void;
  selected?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={() => onOpen(template)}
      className={cn(
        'flex h-full w-full min-w-0 flex-col gap-2 rounded-lg border bg-card p-4 text-left shadow-xs transition-colors hover:border-primary/50 hover:bg-accent/40 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
        selected && 'border-primary ring-2 ring-primary/30',
      )}
      data-testid="template-card"
      data-template-id={template.id}
      aria-label={`Preview ${template.name}`}
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge variant="secondary">{categoryLabel(template.category)}</Badge>
        {template.kind === 'newsletter' && template.category !== 'newsletter-layout' && (
          <Badge variant="outline">Newsletter layout</Badge>
        )}
        {!template.isLibrary && <Badge variant="success">Mine</Badge>}
        {!template.published && <Badge variant="warning">Unpublished</Badge>}
      </div>
      <h3 className="font-medium leading-snug">{template.name}</h3>
      <p className="line-clamp-2 text-sm text-muted-foreground">{template.description || template.subject}</p>
      <p className="mt-auto truncate border-t pt-2 text-xs text-muted-foreground">
        <span className="font-medium text-foreground">Subject:</span> {shortMergeTags(template.subject)}
      </p>
    </button>
  );
}

/** A responsive grid of template cards with loading and empty states. */
export function TemplateGrid({
  templates,
  isLoading,
  onOpen,
  selectedId,
  empty,
  columns = 'wide',
}: {
  templates: Template[] | undefined;
  isLoading: boolean;
  onOpen: (template: Template) => void;
  selectedId?: string | null;
  empty?: React.ReactNode;
  columns?: 'wide' | 'narrow';
}) {
  const grid = cn('grid gap-3', columns === 'wide' ? 'sm:grid-cols-2 lg:grid-cols-3' : 'sm:grid-cols-2');
  if (isLoading && !templates) {
    return (
      <div className={grid} aria-busy="true">
        {Array.from({ length: 6 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
          <Skeleton key={i} className="h-40 rounded-lg" />
        ))}
      </div>
    );
  }
  if (!templates || templates.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-10 text-center text-muted-foreground"
        data-testid="templates-empty"
      >
        <FileText className="size-8" aria-hidden="true" />
        {empty ?? <p>No templates match. Try another word or category.</p>}
      </div>
    );
  }
  return (
    <ul className={grid} data-testid="template-grid">
      {templates.map((template) => (
        <li key={template.id} className="min-w-0">
          <TemplateCard template={template} onOpen={onOpen} selected={template.id === selectedId} />
        </li>
      ))}
    </ul>
  );
}
