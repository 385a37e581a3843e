import { categoryName } from '@shared/categories';
import type { MyAssignment } from '@shared/data-entry';
import type { DirectoryContact } from '@shared/directory';
import { UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  DirectoryContactForm,
  type DirectoryContactFormInput,
  EMPTY_DIRECTORY_CONTACT,
} from '@/components/contacts/directory-contact-form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { countryLabel, useCountries } from '@/hooks/use-reference';
import { toast } from '@/hooks/use-toast';
import { useCreateDirectoryContact, useMyAssignment } from '../api/data-entry';

/** "Nigeria · Agriculture (strict) · 12 of 40 today": what the officer was assigned. */
function AssignmentLine({ assignment }: { assignment: MyAssignment }) {
  const { byCode } = useCountries();
  const scope = [
    assignment.countryCode ? countryLabel(byCode, assignment.countryCode) : null,
    assignment.category ? categoryName(assignment.category) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  if (!scope && !assignment.dailyQuota) return null;
  return (
    <p className="text-sm" data-testid="my-assignment">
      Your assignment: <strong>{scope || 'any country and category'}</strong>
      {assignment.strict && ' (records outside it are refused)'}
      {assignment.dailyQuota !== null &&
        ` · ${assignment.enteredToday} of ${assignment.dailyQuota} records today`}
    </p>
  );
}

/** Adds a business to the shared directory. A duplicate email shows the existing contact and "Open it". */
export function AddContactCard({ onOpenContact }: { onOpenContact: (contact: DirectoryContact) => void }) {
  const create = useCreateDirectoryContact();
  const [formKey, setFormKey] = useState(0);
  // Country and category carry over to the next contact: officers usually enter one market at a time.
  const [defaults, setDefaults] = useState<DirectoryContactFormInput>(EMPTY_DIRECTORY_CONTACT);
  const assignment = useMyAssignment();
  const assigned = assignment.data;
  // An officer assigned to a country or category starts the form there.
  useEffect(() => {
    if (!assigned || (!assigned.countryCode && !assigned.category)) return;
    setDefaults((current) =>
      current.countryCode || current.category
        ? current
        : {
            ...EMPTY_DIRECTORY_CONTACT,
            countryCode: assigned.countryCode ?? '',
            category: assigned.category ?? '',
          },
    );
    setFormKey((key) => key + 1);
  }, [assigned]);

  return (
    <Card id="add-contact" data-testid="add-contact-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserPlus className="size-5 text-primary" aria-hidden="true" />
          <h2>Add contact</h2>
        </CardTitle>
        <CardDescription>New contacts join the verification queue as unverified.</CardDescription>
        {assigned && <AssignmentLine assignment={assigned} />}
      </CardHeader>
      <CardContent>
        <DirectoryContactForm
          testId="add-contact-form"
          resetKey={formKey}
          defaultValues={defaults}
          submitLabel="Add contact"
          pendingLabel="Adding…"
          pending={create.isPending}
          error={create.error}
          onOpenDuplicate={(existing) => {
            create.reset();
            onOpenContact(existing);
          }}
          onSubmit={(values) =>
            create.mutate(values, {
              onSuccess: (contact) => {
                toast({
                  title: 'Contact added',
                  description: `${contact.companyName} is in the verification queue.`,
                });
                setDefaults({
                  ...EMPTY_DIRECTORY_CONTACT,
                  countryCode: values.countryCode,
                  category: values.category,
                });
                setFormKey((key) => key + 1);
                create.reset();
              },
            })
          }
        />
      </CardContent>
    </Card>
  );
}
