import type { Template, TemplateCategory } from '@shared/templates';
import { ArrowLeft, FileText } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { TemplateFilters, TemplateGrid } from './template-browser';
import { TemplatePreview } from './template-preview';
import { useTemplates } from './template-queries';

export type TemplatePickerKind = 'email' | 'newsletter' | 'bulk';

/**
 * "Use a template" for the editors: browse the library and the user's own templates, preview one, pick
 * it. Step and bulk editors get email templates; the newsletter editor gets newsletter layouts.
 */
export function TemplatePickerDialog({
  kind,
  onPick,
  trigger,
  open: controlledOpen,
  onOpenChange,
}: {
  kind: TemplatePickerKind;
  onPick: (template: Template) => void;
  /** The button that opens the dialog; defaults to an outline "Use a template" button. */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [uncontrolledOpen, setUncontrolledOpen] = useState(false);
  const open = controlledOpen ?? uncontrolledOpen;
  const setOpen = (next: boolean) => {
    setUncontrolledOpen(next);
    onOpenChange?.(next);
  };
  const [q, setQ] = useState('');
  const [category, setCategory] = useState<TemplateCategory | ''>('');
  const [scope, setScope] = useState<'all' | 'mine'>('all');
  const [selected, setSelected] = useState<Template | null>(null);
  const search = useDebouncedValue(q, 250);
  const templateKind = kind === 'newsletter' ? 'newsletter' : 'email';
  const templates = useTemplates({ q: search, category, kind: templateKind, scope }, 'user');

  useEffect(() => {
    if (!open) setSelected(null);
  }, [open]);

  const pick = (template: Template) => {
    onPick(template);
    setOpen(false);
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {trigger ?? (
          <Button type="button" variant="outline" data-testid="use-template-button">
            <FileText aria-hidden="true" />
            Use a template
          </Button>
        )}
      </DialogTrigger>
      <DialogContent
        className="flex max-h-[90dvh] flex-col gap-4 sm:max-w-4xl"
        data-testid="template-picker-dialog"
      >
        <DialogHeader>
          <DialogTitle>{selected ? selected.name : 'Choose a template'}</DialogTitle>
          <DialogDescription>
            {selected
              ? selected.description
              : kind === 'newsletter'
                ? 'Start from a newsletter layout. You can change every block afterwards.'
                : 'Start from a proven email. Its subject and body replace what is in the editor.'}
          </DialogDescription>
        </DialogHeader>
        {selected ? (
          <>
            <TemplatePreview template={selected} className="shrink-0" frameClassName="h-[50dvh]" />
            <DialogFooter className="gap-2">
              <Button type="button" variant="outline" onClick={() => setSelected(null)}>
                <ArrowLeft aria-hidden="true" />
                Back to templates
              </Button>
              <Button type="button" onClick={() => pick(selected)} data-testid="pick-template">
                Use this template
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <div className="flex flex-col gap-2">
              <Tabs value={scope} onValueChange={(value) => setScope(value as 'all' | 'mine')}>
                <TabsList>
                  <TabsTrigger value="all">All templates</TabsTrigger>
                  <TabsTrigger value="mine">My templates</TabsTrigger>
                </TabsList>
              </Tabs>
              <TemplateFilters q={q} category={category} onQChange={setQ} onCategoryChange={setCategory} />
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto pr-1">
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
                  onOpen={setSelected}
                  columns="narrow"
                  empty={
                    <p>
                      {scope === 'mine'
                        ? 'You have not saved any templates yet. Save one from the Templates page.'
                        : 'No templates match. Try another word or category.'}
                    </p>
                  }
                />
              )}
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
