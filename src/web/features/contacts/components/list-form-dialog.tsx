import { zodResolver } from '@hookform/resolvers/zod';
import { CUSTOM_FIELDS_MAX } from '@shared/contacts';
import { type ContactList, createListSchema } from '@shared/lists';
import { Plus, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
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
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { useCreateList, useUpdateList } from '../api/lists';
import { slugifyCustomName } from '../lib/import-mapping';

type FormInput = z.input<typeof createListSchema>;
type FormOutput = z.output<typeof createListSchema>;

/** Creates a list, or edits one's name, description and custom fields (merge tags). */
export function ListFormDialog({
  open,
  onOpenChange,
  list,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Edit this list; create a new one when absent. */
  list?: ContactList;
  onSaved?: (list: ContactList) => void;
}) {
  const create = useCreateList();
  const update = useUpdateList();
  const mutation = list ? update : create;
  const [newField, setNewField] = useState('');
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createListSchema),
    defaultValues: { name: '', description: '', customFields: [] },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill on open
  useEffect(() => {
    if (!open) return;
    create.reset();
    update.reset();
    setNewField('');
    form.reset({
      name: list?.name ?? '',
      description: list?.description ?? '',
      customFields: list?.customFields ?? [],
    });
  }, [open, list?.id]);

  const fields = form.watch('customFields') ?? [];
  const addField = () => {
    const name = slugifyCustomName(newField).slice(0, 40);
    if (!newField.trim() || fields.includes(name)) {
      setNewField('');
      return;
    }
    form.setValue('customFields', [...fields, name], { shouldDirty: true, shouldValidate: true });
    setNewField('');
  };

  const submit = form.handleSubmit((values) => {
    const onError = (error: unknown) => {
      const { status, message } = parseApiError(error);
      if (status === 409)
        form.setError('name', { message: message ?? 'You already have a list with this name.' });
      else {
        const problems = parseApiError(error).data?.errors ?? [];
        const custom = problems.find((problem) => problem.path.startsWith('customFields'));
        if (custom) form.setError('customFields', { message: custom.message });
        else
          toast({
            title: 'List not saved',
            description: getErrorMessage(error, 'Please try again.'),
            variant: 'destructive',
          });
      }
    };
    const onSuccess = (saved: ContactList) => {
      toast({ title: list ? 'List saved' : 'List created', description: saved.name });
      onOpenChange(false);
      onSaved?.(saved);
    };
    if (list) {
      update.mutate(
        {
          id: list.id,
          name: values.name,
          description: values.description,
          customFields: values.customFields,
        },
        { onSuccess, onError },
      );
    } else {
      create.mutate(values, { onSuccess, onError });
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !mutation.isPending && onOpenChange(next)}>
      <DialogContent data-testid="list-form-dialog">
        <DialogHeader>
          <DialogTitle>{list ? 'Edit list' : 'New list'}</DialogTitle>
          <DialogDescription>
            {list
              ? 'Rename the list, describe it, or change its custom fields.'
              : 'A list holds contacts you add from the directory or import from a CSV file.'}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={submit} noValidate className="grid gap-4">
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Name</FormLabel>
                  <FormControl>
                    <Input {...field} maxLength={100} autoFocus data-testid="list-name" />
                  </FormControl>
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
              name="customFields"
              render={() => (
                <FormItem>
                  <FormLabel>Custom fields</FormLabel>
                  {fields.length > 0 && (
                    <ul className="flex flex-wrap gap-1.5" aria-label="Custom fields">
                      {fields.map((name) => (
                        <li
                          key={name}
                          className="inline-flex items-center gap-1 rounded-md border bg-muted px-2 py-0.5 font-mono text-xs"
                        >
                          {name}
                          <button
                            type="button"
                            className="rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                            onClick={() =>
                              form.setValue(
                                'customFields',
                                fields.filter((item) => item !== name),
                                { shouldDirty: true, shouldValidate: true },
                              )
                            }
                            aria-label={`Remove custom field ${name}`}
                          >
                            <X className="size-3" aria-hidden="true" />
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                  <div className="flex gap-2">
                    <FormControl>
                      <Input
                        value={newField}
                        onChange={(event) => setNewField(event.target.value)}
                        onKeyDown={(event) => {
                          if (event.key === 'Enter') {
                            event.preventDefault();
                            addField();
                          }
                        }}
                        placeholder="e.g. favourite_product"
                        disabled={fields.length >= CUSTOM_FIELDS_MAX}
                        maxLength={40}
                      />
                    </FormControl>
                    <Button
                      type="button"
                      variant="outline"
                      onClick={addField}
                      disabled={!newField.trim() || fields.length >= CUSTOM_FIELDS_MAX}
                    >
                      <Plus aria-hidden="true" />
                      Add
                    </Button>
                  </div>
                  <FormDescription>
                    Extra columns for this list, usable as merge tags. Up to {CUSTOM_FIELDS_MAX}. Removing one
                    hides its values.
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <DialogFooter>
              <Button
                type="button"
                variant="ghost"
                onClick={() => onOpenChange(false)}
                disabled={mutation.isPending}
              >
                Cancel
              </Button>
              <Button type="submit" disabled={mutation.isPending} data-testid="list-form-submit">
                {mutation.isPending ? 'Saving…' : list ? 'Save' : 'Create list'}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
