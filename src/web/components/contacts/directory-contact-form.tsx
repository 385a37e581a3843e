import { zodResolver } from '@hookform/resolvers/zod';
import { categoryName } from '@shared/categories';
import { VERIFICATION_STATUSES, type VerificationStatus } from '@shared/contacts';
import { createDirectoryContactSchema, type DirectoryContact } from '@shared/directory';
import { AlertTriangle, ExternalLink } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { VERIFICATION_LABELS } from '@/components/contacts/contact-badges';
import { CategoryPicker, CityPicker, CountryPicker } from '@/components/contacts/reference-pickers';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useCountries } from '@/hooks/use-reference';
import { parseApiError } from '@/lib/errors';

/** The shared create schema, with the form's own words for the two pickers left empty. */
export const directoryContactFormSchema = createDirectoryContactSchema.extend({
  countryCode: z
    .string()
    .trim()
    .min(1, 'Choose a country')
    .pipe(createDirectoryContactSchema.shape.countryCode),
  category: z.string().min(1, 'Choose a category').pipe(createDirectoryContactSchema.shape.category),
});

export type DirectoryContactFormInput = z.input<typeof directoryContactFormSchema>;
export type DirectoryContactFormOutput = z.output<typeof directoryContactFormSchema>;

export const EMPTY_DIRECTORY_CONTACT: DirectoryContactFormInput = {
  companyName: '',
  contactName: '',
  jobTitle: '',
  email: '',
  phone: '',
  website: '',
  address: '',
  city: '',
  countryCode: '',
  category: '',
};

export function toDirectoryFormValues(contact: DirectoryContact): DirectoryContactFormInput {
  return {
    companyName: contact.companyName,
    contactName: contact.contactName ?? '',
    jobTitle: contact.jobTitle ?? '',
    email: contact.email,
    phone: contact.phone ?? '',
    website: contact.website ?? '',
    address: contact.address ?? '',
    city: contact.city ?? '',
    countryCode: contact.countryCode,
    category: contact.category,
  };
}

/** The words for the 409 of a duplicate email, and the contact the server found. */
export const DUPLICATE_EMAIL_TEXT = 'This email already exists in the directory';

export function readDuplicate(error: unknown): DirectoryContact | undefined {
  const { status, data } = parseApiError(error);
  const existing = (data as { existing?: DirectoryContact } | undefined)?.existing;
  return status === 409 && existing ? existing : undefined;
}

/** The found duplicate, with the way to open it instead of creating a copy. */
export function DuplicateContactAlert({
  existing,
  onOpen,
}: {
  existing: DirectoryContact;
  onOpen?: (contact: DirectoryContact) => void;
}) {
  const { byCode } = useCountries();
  const country = byCode.get(existing.countryCode);
  return (
    <Alert variant="warning" data-testid="duplicate-contact">
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>{DUPLICATE_EMAIL_TEXT}</AlertTitle>
      <AlertDescription className="grid gap-2">
        <p>
          <span className="font-medium text-foreground">{existing.companyName}</span>
          {existing.contactName ? ` · ${existing.contactName}` : ''} · {existing.email}
          <br />
          {[existing.city, country?.name ?? existing.countryCode].filter(Boolean).join(', ')} ·{' '}
          {categoryName(existing.category)}
          {existing.deletedAt ? ' · deleted' : ''}
        </p>
        {onOpen && !existing.deletedAt && (
          <div>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => onOpen(existing)}
              data-testid="open-duplicate"
            >
              <ExternalLink aria-hidden="true" />
              Open it
            </Button>
          </div>
        )}
      </AlertDescription>
    </Alert>
  );
}

const FIELDS_WITH_SERVER_ERRORS = [
  'companyName',
  'contactName',
  'jobTitle',
  'email',
  'phone',
  'website',
  'address',
  'city',
  'countryCode',
  'category',
] as const;

/**
 * The directory contact's fields (data entry's Add contact, the edit dialogs of data entry and admin).
 * The caller sends; a 400's field problems land on the fields, a 409 shows the existing contact.
 */
export function DirectoryContactForm({
  defaultValues,
  onSubmit,
  submitLabel,
  pendingLabel = 'Saving…',
  pending,
  error,
  onOpenDuplicate,
  footer,
  status,
  onStatusChange,
  resetKey,
  testId = 'directory-contact-form',
}: {
  defaultValues: DirectoryContactFormInput;
  onSubmit: (values: DirectoryContactFormOutput, dirty: Set<keyof DirectoryContactFormInput>) => void;
  submitLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  /** The last failure of the caller's mutation. */
  error?: unknown;
  onOpenDuplicate?: (contact: DirectoryContact) => void;
  /** Extra buttons beside submit (Cancel). */
  footer?: ReactNode;
  /** Admin only: the verification status is edited with the fields. */
  status?: VerificationStatus;
  onStatusChange?: (status: VerificationStatus) => void;
  /** Changing it resets the form to `defaultValues` (after a save, or another contact). */
  resetKey?: string | number;
  testId?: string;
}) {
  const form = useForm<DirectoryContactFormInput, unknown, DirectoryContactFormOutput>({
    resolver: zodResolver(directoryContactFormSchema),
    defaultValues,
  });
  const { reset, setError } = form;

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new resetKey resets; defaultValues is a fresh object each render
  useEffect(() => {
    reset(defaultValues);
  }, [resetKey, reset]);

  useEffect(() => {
    if (!error) return;
    const problems = parseApiError(error).data?.errors ?? [];
    for (const problem of problems) {
      const field = FIELDS_WITH_SERVER_ERRORS.find(
        (name) => name === problem.path || problem.path.endsWith(`.${name}`),
      );
      if (field) setError(field, { type: 'server', message: problem.message });
    }
  }, [error, setError]);

  const duplicate = readDuplicate(error);
  const generalError =
    error && !duplicate && !(parseApiError(error).data?.errors?.length ?? 0)
      ? (parseApiError(error).message ?? 'The contact could not be saved. Please try again.')
      : undefined;
  const countryCode = form.watch('countryCode');

  const submit = form.handleSubmit((values) => {
    const dirty = new Set(Object.keys(form.formState.dirtyFields) as (keyof DirectoryContactFormInput)[]);
    onSubmit(values, dirty);
  });

  const text = (
    name: Exclude<keyof DirectoryContactFormInput, 'countryCode' | 'category' | 'city'>,
    label: string,
    props: { type?: string; autoComplete?: string; required?: boolean; placeholder?: string } = {},
  ) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>
            {label}
            {!props.required && <span className="font-normal text-muted-foreground">(optional)</span>}
          </FormLabel>
          <FormControl>
            <Input
              {...field}
              value={field.value ?? ''}
              type={props.type ?? 'text'}
              autoComplete={props.autoComplete ?? 'off'}
              placeholder={props.placeholder}
              data-testid={`${testId}-${name}`}
            />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );

  return (
    <Form {...form}>
      <form onSubmit={submit} noValidate className="grid gap-4" data-testid={testId}>
        {duplicate && <DuplicateContactAlert existing={duplicate} onOpen={onOpenDuplicate} />}
        {generalError && (
          <Alert variant="destructive" data-testid={`${testId}-error`}>
            <AlertTriangle aria-hidden="true" />
            <AlertTitle>Not saved</AlertTitle>
            <AlertDescription>{generalError}</AlertDescription>
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          {text('companyName', 'Company', { required: true, autoComplete: 'organization' })}
          {text('email', 'Email', { required: true, type: 'email', placeholder: 'name@company.com' })}
          {text('contactName', 'Contact name')}
          {text('jobTitle', 'Job title')}
          {text('phone', 'Phone', { type: 'tel', placeholder: '+234 …' })}
          {text('website', 'Website', { placeholder: 'company.com' })}
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
                    onChange={(next) => {
                      field.onChange(next[0] ?? '');
                      if (next[0] !== field.value) form.setValue('city', '', { shouldDirty: true });
                    }}
                    placeholder="Choose a country"
                    testId={`${testId}-country`}
                  />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="city"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  City<span className="font-normal text-muted-foreground">(optional)</span>
                </FormLabel>
                <FormControl>
                  <CityPicker
                    countryCodes={countryCode ? [countryCode] : []}
                    multiple={false}
                    allowCustom
                    value={field.value ? [field.value] : []}
                    onChange={(next) => field.onChange(next[0] ?? '')}
                    testId={`${testId}-city`}
                  />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <div className="sm:col-span-2">
            {text('address', 'Address', { autoComplete: 'street-address' })}
          </div>
          <FormField
            control={form.control}
            name="category"
            render={({ field }) => (
              <FormItem className={onStatusChange ? undefined : 'sm:col-span-2'}>
                <FormLabel>Category</FormLabel>
                <FormControl>
                  <CategoryPicker
                    multiple={false}
                    value={field.value ? [field.value] : []}
                    onChange={(next) => field.onChange(next[0] ?? '')}
                    placeholder="Choose a category"
                    testId={`${testId}-category`}
                  />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {onStatusChange && status && (
            <div className="grid gap-2">
              <label htmlFor={`${testId}-status`} className="text-sm font-medium">
                Verification
              </label>
              <Select value={status} onValueChange={(value) => onStatusChange(value as VerificationStatus)}>
                <SelectTrigger id={`${testId}-status`} className="w-full" data-testid={`${testId}-status`}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {VERIFICATION_STATUSES.map((value) => (
                    <SelectItem key={value} value={value}>
                      {VERIFICATION_LABELS[value]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {footer}
          <Button type="submit" disabled={pending} data-testid={`${testId}-submit`}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Form>
  );
}
