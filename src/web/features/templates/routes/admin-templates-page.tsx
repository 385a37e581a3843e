import type { Template, TemplateCategory } from '@shared/templates';
import { Eye, EyeOff, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { TemplateFilters, TemplateGrid } from '@/components/templates/template-browser';
import { useTemplates } from '@/components/templates/template-queries';
import { Button } from '@/components/ui/button';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useAdminDeleteTemplate, useAdminUpdateTemplate } from '../api/templates';
import { TemplateDetailDialog } from '../components/template-detail-dialog';
import { TemplateFormDialog, type TemplateFormMode } from '../components/template-form-dialog';

/** /admin/templates: super admins curate the library every user and visitor sees. */
export default function AdminTemplatesPage() {
  const [q, setQ] = useState('');
  const [category, setCategory] = useState<TemplateCategory | ''>('');
  const search = useDebouncedValue(q, 250);
  const templates = useTemplates({ q: search, category }, 'admin');
  const [open, setOpen] = useState<Template | null>(null);
  const [formMode, setFormMode] = useState<TemplateFormMode | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const update = useAdminUpdateTemplate();
  const remove = useAdminDeleteTemplate();
  const unpublished = templates.data?.filter((t) => !t.published).length ?? 0;

  const togglePublished = (template: Template) =>
    update.mutate(
      { id: template.id, published: !template.published },
      {
        onSuccess: (saved) => {
          setOpen(saved);
          toast({
            title: saved.published ? 'Template published' : 'Template unpublished',
            description: saved.published
              ? 'Users and visitors can see it again.'
              : 'It is hidden from users and the public page.',
          });
        },
        onError: (error) =>
          toast({
            title: 'Template not changed',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-templates-page">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Template library</h1>
          <p className="text-muted-foreground">
            The templates every user sees and the public templates page shows. Templates that ship with
            Tambari can be edited or unpublished; your edits are kept across updates.
          </p>
        </div>
        <Button onClick={() => setFormMode({ type: 'admin-create' })} data-testid="admin-new-template">
          <Plus aria-hidden="true" />
          New library template
        </Button>
      </header>
      <div className="space-y-3">
        <TemplateFilters q={q} category={category} onQChange={setQ} onCategoryChange={setCategory} />
        {templates.data && (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {templates.data.length} templates{unpublished > 0 ? `, ${unpublished} unpublished` : ''}
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
        <TemplateGrid templates={templates.data} isLoading={templates.isLoading} onOpen={setOpen} />
      )}

      <TemplateDetailDialog
        template={open}
        onOpenChange={(next) => !next && setOpen(null)}
        audience="admin"
        onDelete={
          open && !open.slug
            ? (template) => {
                setOpen(null);
                setDeleting(template);
              }
            : undefined
        }
        extraActions={
          open && (
            <>
              <Button
                variant="outline"
                onClick={() => {
                  setFormMode({ type: 'admin-edit', template: open });
                  setOpen(null);
                }}
                data-testid="admin-edit-template"
              >
                <Pencil aria-hidden="true" />
                Edit
              </Button>
              <Button
                variant="outline"
                onClick={() => togglePublished(open)}
                disabled={update.isPending}
                data-testid="admin-toggle-published"
              >
                {open.published ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                {open.published ? 'Unpublish' : 'Publish'}
              </Button>
            </>
          )
        }
      />
      {formMode && (
        <TemplateFormDialog
          mode={formMode}
          open
          onOpenChange={(next) => !next && setFormMode(null)}
          onSaved={setOpen}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Delete this library template?"
        description={`“${deleting?.name ?? ''}” disappears for every user. This is recorded in the audit log.`}
        confirmLabel="Delete template"
        pendingLabel="Deleting…"
        destructive
        pending={remove.isPending}
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
