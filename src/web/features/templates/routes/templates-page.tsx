import type { Template, TemplateCategory } from '@shared/templates';
import { TEMPLATE_CATEGORIES } from '@shared/templates';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { TemplateFilters, TemplateGrid } from '@/components/templates/template-browser';
import { useTemplates } from '@/components/templates/template-queries';
import { Button } from '@/components/ui/button';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/hooks/use-auth';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { cn } from '@/lib/utils';
import { useDeleteTemplate } from '../api/templates';
import { TemplateDetailDialog } from '../components/template-detail-dialog';
import { TemplateFormDialog, type TemplateFormMode } from '../components/template-form-dialog';

type Tab = 'all' | 'mine';

function readCategory(value: string | null): TemplateCategory | '' {
  return value && (TEMPLATE_CATEGORIES as readonly string[]).includes(value)
    ? (value as TemplateCategory)
    : '';
}

/**
 * /templates: signed in, the library plus the user's own templates with "use" and "save as mine";
 * signed out (public), the same published library read-only. Search, category and tab live in the URL.
 */
export default function TemplatesPage() {
  usePublicPageMeta('/templates');
  const { user } = useAuth();
  const signedIn = Boolean(user);
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  const category = readCategory(params.get('category'));
  const tab: Tab = signedIn && params.get('tab') === 'mine' ? 'mine' : 'all';
  const search = useDebouncedValue(q, 250);

  const updateParams = (patch: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(patch)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };

  const templates = useTemplates(
    { q: search, category, scope: tab === 'mine' ? 'mine' : 'all' },
    signedIn ? 'user' : 'public',
  );
  const [open, setOpen] = useState<Template | null>(null);
  const [formMode, setFormMode] = useState<TemplateFormMode | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const remove = useDeleteTemplate();

  const onQChange = (value: string) => {
    setQ(value);
    updateParams({ q: value.trim() });
  };

  return (
    <div
      className={cn(!signedIn && 'bg-[radial-gradient(ellipse_at_top,var(--color-accent),transparent_55%)]')}
    >
      <div
        className={cn('mx-auto w-full max-w-7xl space-y-6', !signedIn && 'px-4 py-12 sm:px-6 md:py-16')}
        data-testid="templates-page"
      >
        {signedIn ? (
          <header className="flex flex-wrap items-end justify-between gap-3">
            <div className="space-y-1">
              <h1 className="text-2xl font-semibold tracking-tight">Templates</h1>
              <p className="text-muted-foreground">
                100+ ready-to-send emails and newsletter layouts with merge tags. Preview one, then use it in
                a campaign, a newsletter or a bulk email — or save your own.
              </p>
            </div>
            <Button
              onClick={() => setFormMode({ type: 'save-copy', source: null })}
              data-testid="new-template"
            >
              <Plus aria-hidden="true" />
              New template
            </Button>
          </header>
        ) : (
          <header className="mx-auto max-w-3xl space-y-4 text-center">
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">Templates</p>
            <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
              100+ email templates that get replies
            </h1>
            <p className="text-lg text-muted-foreground">
              Cold introductions, follow-ups, meeting requests, African holidays, industry pitches and
              newsletter layouts — written for businesses in Nigeria, Ghana, Kenya, South Africa and beyond.
            </p>
            <div className="flex justify-center">
              <Button asChild size="lg">
                <Link to="/auth">Create a free account to use them</Link>
              </Button>
            </div>
          </header>
        )}

        <div className="space-y-3">
          {signedIn && (
            <Tabs
              value={tab}
              onValueChange={(value) => updateParams({ tab: value === 'mine' ? 'mine' : '' })}
            >
              <TabsList>
                <TabsTrigger value="all" data-testid="tab-all-templates">
                  All templates
                </TabsTrigger>
                <TabsTrigger value="mine" data-testid="tab-my-templates">
                  My templates
                </TabsTrigger>
              </TabsList>
            </Tabs>
          )}
          <TemplateFilters
            q={q}
            category={category}
            onQChange={onQChange}
            onCategoryChange={(value) => updateParams({ category: value })}
          />
          {templates.data && (
            <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="template-count">
              {templates.data.length} {templates.data.length === 1 ? 'template' : 'templates'}
            </p>
          )}
        </div>

        {templates.isError ? (
          <QueryError
            title="Templates could not be loaded"
            error={templates.error}
            onRetry={templates.refetch}
          />
        ) : (
          <TemplateGrid
            templates={templates.data}
            isLoading={templates.isLoading}
            onOpen={setOpen}
            empty={
              tab === 'mine' && !search && !category ? (
                <p>
                  You have no templates of your own yet. Open any template and choose “Save as my template”,
                  or create a new one.
                </p>
              ) : undefined
            }
          />
        )}
      </div>

      <TemplateDetailDialog
        template={open}
        onOpenChange={(next) => !next && setOpen(null)}
        audience={signedIn ? 'user' : 'visitor'}
        onSaveCopy={(template) => {
          setOpen(null);
          setFormMode({ type: 'save-copy', source: template });
        }}
        onEdit={(template) => {
          setOpen(null);
          setFormMode({ type: 'edit-own', template });
        }}
        onDelete={(template) => {
          setOpen(null);
          setDeleting(template);
        }}
      />
      {formMode && (
        <TemplateFormDialog
          mode={formMode}
          open={formMode !== null}
          onOpenChange={(next) => !next && setFormMode(null)}
          onSaved={(saved) => {
            if (formMode.type === 'save-copy') updateParams({ tab: 'mine' });
            setOpen(saved);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete this template?"
        description={`“${deleting?.name ?? ''}” will be removed from your templates. Campaigns that already use its text keep it.`}
        confirmLabel="Delete template"
        pendingLabel="Deleting…"
        destructive
        pending={remove.isPending}
        testId="delete-template-dialog"
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast({ title: 'Template deleted', description: deleting.name });
              setDeleting(null);
            },
            onError: (error) =>
              toast({
                title: 'Template not deleted',
                description: getErrorMessage(error, 'Please try again.'),
                variant: 'destructive',
              }),
          });
        }}
      />
    </div>
  );
}
