import { zodResolver } from '@hookform/resolvers/zod';
import {
  TEMPLATE_CATEGORIES,
  TEMPLATE_CATEGORY_LABELS,
  type Template,
  type TemplateCategory,
  templateInputSchema,
} from '@shared/templates';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { UnsafeLinksNotice } from '@/components/mail-links/unsafe-links-notice';
import { TemplatePreview } from '@/components/templates/template-preview';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import {
  useAdminCreateTemplate,
  useAdminUpdateTemplate,
  useSaveTemplate,
  useUpdateTemplate,
} from '../api/templates';
import { copyName } from '../lib/template-links';

const formSchema = templateInputSchema
  .pick({ name: true, category: true, description: true, subject: true, bodyHtml: true })
  .extend({
    tagsText: z.string().max(900, 'Too many tags'),
    published: z.boolean(),
  });
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

export type TemplateFormMode =
  /** Save a copy of a library template (or a new one) into "my templates". */
  | { type: 'save-copy'; source: Template | null }
  | { type: 'edit-own'; template: Template }
  | { type: 'admin-create' }
  | { type: 'admin-edit'; template: Template };

function initialValues(mode: TemplateFormMode): FormInput {
  const source =
    mode.type === 'save-copy' ? mode.source : mode.type === 'admin-create' ? null : mode.template;
  return {
    name: source ? (mode.type === 'save-copy' ? copyName(source.name) : source.name) : '',
    category: (source?.category as TemplateCategory | undefined) ?? 'cold-introduction',
    description: source?.description ?? '',
    subject: source?.subject ?? '',
    bodyHtml:
      source?.bodyHtml ?? '<p>Hi {{ firstName | default: "there" }},</p>\n<p></p>\n<p>{{ senderName }}</p>',
    tagsText: (source?.tags ?? []).join(', '),
    published: source?.published ?? true,
  };
}

function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** Saves, edits or (super admins) manages a template: name, category, subject, HTML body, tags. */
export function TemplateFormDialog({
  mode,
  open,
  onOpenChange,
  onSaved,
}: {
  mode: TemplateFormMode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved?: (template: Template) => void;
}) {
  const save = useSaveTemplate();
  const update = useUpdateTemplate();
  const adminCreate = useAdminCreateTemplate();
  const adminUpdate = useAdminUpdateTemplate();
  const pending = save.isPending || update.isPending || adminCreate.isPending || adminUpdate.isPending;
  const isAdmin = mode.type === 'admin-create' || mode.type === 'admin-edit';
  const existing = mode.type === 'edit-own' || mode.type === 'admin-edit' ? mode.template : null;
  const source = mode.type === 'save-copy' ? mode.source : existing;
  const kind = source?.kind ?? 'email';
  // A newsletter layout's body is generated from its blocks: edit the blocks in the newsletter editor.
  const bodyLocked = kind === 'newsletter';

  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: initialValues(mode),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill when the dialog opens
  useEffect(() => {
    if (open) form.reset(initialValues(mode));
  }, [open]);

  const subject = form.watch('subject');
  const bodyHtml = form.watch('bodyHtml');

  const submit = form.handleSubmit((values) => {
    const body = {
      kind,
      category: values.category,
      name: values.name,
      description: values.description,
      subject: values.subject,
      bodyHtml: values.bodyHtml,
      blocks: kind === 'newsletter' ? (source?.blocks ?? null) : null,
      tags: parseTags(values.tagsText),
    };
    const onError = (error: unknown) => {
      const problems = parseApiError(error).data?.errors ?? [];
      let shown = false;
      for (const problem of problems) {
        const field = problem.path.split('.')[0];
        if (field && field in formSchema.shape) {
          form.setError(field as keyof FormInput, { message: problem.message });
          shown = true;
        }
      }
      if (!shown) {
        toast({
          title: 'Template not saved',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
      }
    };
    const onSuccess = (saved: Template) => {
      toast({ title: existing ? 'Template saved' : 'Template created', description: saved.name });
      onOpenChange(false);
      onSaved?.(saved);
    };
    if (mode.type === 'save-copy') save.mutate(body, { onSuccess, onError });
    else if (mode.type === 'edit-own')
      update.mutate({ id: mode.template.id, ...body }, { onSuccess, onError });
    else if (mode.type === 'admin-create')
      adminCreate.mutate({ ...body, published: values.published }, { onSuccess, onError });
    else
      adminUpdate.mutate(
        { id: mode.template.id, ...body, published: values.published },
        { onSuccess, onError },
      );
  });

  const title = {
    'save-copy': 'Save as my template',
    'edit-own': 'Edit my template',
    'admin-create': 'New library template',
    'admin-edit': 'Edit library template',
  }[mode.type];

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent
        className="max-h-[92dvh] overflow-y-auto sm:max-w-5xl"
        data-testid="template-form-dialog"
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {isAdmin
              ? 'Library templates are shown to every user and on the public templates page.'
              : 'Your own templates are private to your account and appear under “My templates”.'}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={submit} noValidate className="grid gap-6 lg:grid-cols-2">
            <div className="grid content-start gap-4">
              <FormField
                control={form.control}
                name="name"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Name</FormLabel>
                    <FormControl>
                      <Input {...field} maxLength={120} data-testid="template-form-name" />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="category"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Category</FormLabel>
                    <Select value={field.value} onValueChange={field.onChange}>
                      <FormControl>
                        <SelectTrigger className="w-full" data-testid="template-form-category">
                          <SelectValue />
                        </SelectTrigger>
                      </FormControl>
                      <SelectContent>
                        {TEMPLATE_CATEGORIES.map((value) => (
                          <SelectItem key={value} value={value}>
                            {TEMPLATE_CATEGORY_LABELS[value]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="description"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>
                      Description <span className="font-normal text-muted-foreground">(optional)</span>
                    </FormLabel>
                    <FormControl>
                      <Textarea {...field} value={field.value ?? ''} rows={2} maxLength={500} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="subject"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Subject</FormLabel>
                    <FormControl>
                      <Input {...field} maxLength={200} data-testid="template-form-subject" />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              {bodyLocked ? (
                <p className="rounded-md border bg-muted/40 p-3 text-sm text-muted-foreground">
                  This layout is built from newsletter blocks. Use it in a newsletter to change its content;
                  here you can change its name, category, subject and tags.
                </p>
              ) : (
                <FormField
                  control={form.control}
                  name="bodyHtml"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Body (HTML)</FormLabel>
                      <FormControl>
                        <Textarea
                          {...field}
                          rows={10}
                          className="font-mono text-xs"
                          data-testid="template-form-body"
                        />
                      </FormControl>
                      <FormDescription>
                        Merge tags such as {'{{ firstName | default: "there" }}'}, {'{{ company }}'} and{' '}
                        {'{{ senderName }}'} are filled in for each recipient.
                      </FormDescription>
                      <FormMessage />
                      <UnsafeLinksNotice html={field.value} testId="template-unsafe-links" />
                    </FormItem>
                  )}
                />
              )}
              <FormField
                control={form.control}
                name="tagsText"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>
                      Tags <span className="font-normal text-muted-foreground">(comma-separated)</span>
                    </FormLabel>
                    <FormControl>
                      <Input {...field} placeholder="follow-up, fintech" maxLength={900} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              {isAdmin && (
                <FormField
                  control={form.control}
                  name="published"
                  render={({ field }) => (
                    <FormItem className="flex items-center gap-3">
                      <FormControl>
                        <Switch
                          checked={field.value}
                          onCheckedChange={field.onChange}
                          data-testid="template-form-published"
                        />
                      </FormControl>
                      <FormLabel className="!mt-0">Published (visible to users and visitors)</FormLabel>
                    </FormItem>
                  )}
                />
              )}
            </div>
            <div className="grid content-start gap-2">
              <p className="text-sm font-medium">Preview</p>
              <TemplatePreview
                template={{ name: 'the template', subject, bodyHtml, kind }}
                frameClassName="h-[360px] lg:h-[460px]"
              />
            </div>
            <DialogFooter className="gap-2 lg:col-span-2">
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending} data-testid="template-form-save">
                {pending ? 'Saving…' : existing ? 'Save changes' : 'Save template'}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
