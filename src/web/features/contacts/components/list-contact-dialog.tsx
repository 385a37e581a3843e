import { zodResolver } from '@hookform/resolvers/zod';
import { type ContactList, createListContactSchema, type ListContact } from '@shared/lists';
import { AlertCircle } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { CountryPicker } from '@/components/contacts/reference-pickers';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, parseApiError } from '@/lib/errors';
import { type ListContactInput, useAddListContact, useUpdateListContact } from '../api/lists';

/** The shared schema; an empty country box means "no country". */
const formSchema = createListContactSchema.extend({
  countryCode: z
    .string()
    .trim()
    .transform((value) => value || null)
    .pipe(
      z
        .string()
        .regex(/^[A-Z]{2}$/, 'Choose a country')
        .nullable(),
    ),
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

const TEXT_FIELDS = [
  ['firstName', 'First name', 'given-name'],
  ['lastName', 'Last name', 'family-name'],
  ['company', 'Company', 'organization'],
  ['jobTitle', 'Job title', 'organization-title'],
  ['phone', 'Phone', 'tel'],
  ['website', 'Website', 'url'],
  ['city', 'City', 'address-level2'],
] as const;

function toValues(contact: ListContact | undefined, customFields: readonly string[]): FormInput {
  return {
    email: contact?.email ?? '',
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    company: contact?.company ?? '',
    jobTitle: contact?.jobTitle ?? '',
    phone: contact?.phone ?? '',
    website: contact?.website ?? '',
    city: contact?.city ?? '',
    countryCode: contact?.countryCode ?? '',
    customFields: Object.fromEntries(customFields.map((name) => [name, contact?.customFields[name] ?? ''])),
  };
}

/** Adds a contact to a list by hand, or edits one (its custom fields too). */
export function ListContactDialog({
  list,
  contact,
  open,
  onOpenChange,
}: {
  list: ContactList;
  /** Edit this contact; add a new one when absent. */
  contact?: ListContact;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const add = useAddListContact(list.id);
  const update = useUpdateListContact(list.id);
  const mutation = contact ? update : add;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: toValues(contact, list.customFields),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill when opened for another contact
  useEffect(() => {
    if (!open) return;
    add.reset();
    update.reset();
    form.reset(toValues(contact, list.customFields));
  }, [open, contact?.id]);

  const submit = form.handleSubmit((values) => {
    const onError = (error: unknown) => {
      const { status, message, data } = parseApiError(error);
      if (status === 409) {
        form.setError('email', { message: message ?? 'This email address is already in the list.' });
        return;
      }
      for (const problem of data?.errors ?? []) {
        const field = problem.path.split('.')[0] as keyof FormInput;
        if (field in values) form.setError(field, { message: problem.message });
      }
    };
    const onSuccess = (saved: ListContact) => {
      toast({ title: contact ? 'Contact saved' : 'Contact added', description: saved.email });
      onOpenChange(false);
    };
    if (contact) {
      const dirty = Object.keys(form.formState.dirtyFields) as (keyof FormOutput)[];
      if (dirty.length === 0) {
        onOpenChange(false);
        return;
      }
      const patch: Partial<ListContactInput> = {};
      for (const key of dirty) (patch as Record<string, unknown>)[key] = values[key];
      update.mutate({ id: contact.id, ...patch }, { onSuccess, onError });
    } else {
      add.mutate(values, { onSuccess, onError });
    }
  });

  const failure =
    mutation.error &&
    parseApiError(mutation.error).status !== 409 &&
    !parseApiError(mutation.error).data?.errors?.length
      ? mutation.error
      : null;

  return (
    <Dialog open={open} onOpenChange={(next) => !mutation.isPending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-2xl" data-testid="list-contact-dialog">
        <DialogHeader>
          <DialogTitle>{contact ? 'Edit contact' : 'Add a contact'}</DialogTitle>
          <DialogDescription>{list.name}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={submit} noValidate className="grid gap-4">
            {failure && (
              <Alert variant="destructive">
                <AlertCircle aria-hidden="true" />
                <AlertTitle>Not saved</AlertTitle>
                <AlertDescription>{getErrorMessage(failure, 'Please try again.')}</AlertDescription>
              </Alert>
            )}
            <FormField
              control={form.control}
              name="email"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Email</FormLabel>
                  <FormControl>
                    <Input {...field} type="email" autoComplete="email" data-testid="list-contact-email" />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              {TEXT_FIELDS.map(([name, label, autoComplete]) => (
                <FormField
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>{label}</FormLabel>
                      <FormControl>
                        <Input
                          {...field}
                          value={field.value ?? ''}
                          autoComplete={autoComplete}
                          data-testid={`list-contact-${name}`}
                        />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              ))}
              <FormField
                control={form.control}
                name="countryCode"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Country</FormLabel>
                    <FormControl>
                      <CountryPicker
                        mode="all"
                        multiple={false}
                        value={field.value ? [field.value] : []}
                        onChange={(next) => field.onChange(next[0] ?? '')}
                        placeholder="No country"
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            {list.customFields.length > 0 && (
              <fieldset className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2">
                <legend className="px-1 text-sm font-medium">Custom fields</legend>
                {list.customFields.map((name) => (
                  <FormField
                    key={name}
                    control={form.control}
                    name={`customFields.${name}`}
                    render={({ field }) => (
                      <FormItem>
                        <FormLabel className="font-mono text-xs">{name}</FormLabel>
                        <FormControl>
                          <Input {...field} value={field.value ?? ''} maxLength={1000} />
                        </FormControl>
                        <FormMessage />
                      </FormItem>
                    )}
                  />
                ))}
              </fieldset>
            )}
            <DialogFooter>
              <Button
                type="button"
                variant="ghost"
                onClick={() => onOpenChange(false)}
                disabled={mutation.isPending}
              >
                Cancel
              </Button>
              <Button type="submit" disabled={mutation.isPending} data-testid="list-contact-submit">
                {mutation.isPending ? 'Saving…' : contact ? 'Save changes' : 'Add contact'}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
