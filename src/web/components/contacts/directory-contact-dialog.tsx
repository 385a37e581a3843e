import type { VerificationStatus } from '@shared/contacts';
import type { DirectoryContact } from '@shared/directory';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { VerificationBadge } from '@/components/contacts/contact-badges';
import {
  DirectoryContactForm,
  type DirectoryContactFormInput,
  type DirectoryContactFormOutput,
  toDirectoryFormValues,
} from '@/components/contacts/directory-contact-form';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { apiRequest } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { getJson } from '@/lib/http';

/** Only the fields the user changed, so an unchanged email never trips the duplicate check. */
export function changedFields(
  values: DirectoryContactFormOutput,
  dirty: Set<keyof DirectoryContactFormInput>,
): Partial<DirectoryContactFormOutput> {
  const patch: Partial<Record<keyof DirectoryContactFormOutput, unknown>> = {};
  for (const key of dirty) patch[key] = values[key];
  return patch as Partial<DirectoryContactFormOutput>;
}

/**
 * Edits one directory contact: data entry (`/api/data-entry/contacts`) or admin (`/api/admin/directory`,
 * which also edits the verification status). A 409 shows the contact that has the email, with Open it.
 */
export function DirectoryContactDialog({
  contactId,
  basePath,
  onOpenChange,
  onSaved,
  invalidateKeys = [],
  editStatus = false,
}: {
  contactId: string | null;
  basePath: '/api/data-entry/contacts' | '/api/admin/directory';
  onOpenChange: (open: boolean) => void;
  onSaved?: (contact: DirectoryContact) => void;
  /** Query key prefixes to refresh after a save. */
  invalidateKeys?: readonly (readonly unknown[])[];
  editStatus?: boolean;
}) {
  const [currentId, setCurrentId] = useState(contactId);
  useEffect(() => setCurrentId(contactId), [contactId]);
  const queryClient = useQueryClient();
  const path = `${basePath}/${encodeURIComponent(currentId ?? '')}`;

  const contact = useQuery<DirectoryContact>({
    queryKey: [basePath, currentId],
    queryFn: ({ signal }) => getJson(path, signal),
    enabled: Boolean(currentId),
    staleTime: 0,
  });
  const [status, setStatus] = useState<VerificationStatus | undefined>();
  useEffect(() => setStatus(contact.data?.verificationStatus), [contact.data?.verificationStatus]);

  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>): Promise<DirectoryContact> => {
      const res = await apiRequest('PATCH', path, body);
      return (await res.json()) as DirectoryContact;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData([basePath, saved.id], saved);
      for (const key of invalidateKeys) void queryClient.invalidateQueries({ queryKey: key });
    },
  });

  const close = () => {
    save.reset();
    onOpenChange(false);
  };

  return (
    <Dialog open={Boolean(contactId)} onOpenChange={(open) => (open ? undefined : close())}>
      <DialogContent className="sm:max-w-2xl" data-testid="directory-contact-dialog">
        <DialogHeader>
          <DialogTitle>Edit contact</DialogTitle>
          <DialogDescription asChild>
            <div className="flex flex-wrap items-center gap-2">
              {contact.data ? (
                <>
                  <VerificationBadge status={contact.data.verificationStatus} />
                  <span>
                    Added {formatDateTime(contact.data.createdAt)} · updated{' '}
                    {formatDateTime(contact.data.updatedAt)}
                  </span>
                  {contact.data.invalidReason && <span>· Invalid: {contact.data.invalidReason}</span>}
                </>
              ) : (
                <span>Loading the contact…</span>
              )}
            </div>
          </DialogDescription>
        </DialogHeader>
        {contact.isError ? (
          <QueryError
            title="The contact could not be loaded"
            error={contact.error}
            onRetry={() => contact.refetch()}
          />
        ) : !contact.data ? (
          <div className="grid gap-4 sm:grid-cols-2" role="status" aria-label="Loading contact">
            {Array.from({ length: 8 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
              <Skeleton key={index} className="h-9" />
            ))}
          </div>
        ) : (
          <DirectoryContactForm
            testId="edit-contact-form"
            resetKey={`${contact.data.id}:${contact.data.updatedAt}`}
            defaultValues={toDirectoryFormValues(contact.data)}
            status={editStatus ? status : undefined}
            onStatusChange={editStatus ? setStatus : undefined}
            submitLabel="Save changes"
            pending={save.isPending}
            error={save.error}
            onOpenDuplicate={(existing) => {
              save.reset();
              setCurrentId(existing.id);
            }}
            footer={
              <Button type="button" variant="ghost" onClick={close}>
                Cancel
              </Button>
            }
            onSubmit={(values, dirty) => {
              const body: Record<string, unknown> = changedFields(values, dirty);
              if (editStatus && status && status !== contact.data?.verificationStatus) {
                body.verificationStatus = status;
              }
              if (Object.keys(body).length === 0) {
                close();
                return;
              }
              save.mutate(body, {
                onSuccess: (saved) => {
                  toast({ title: 'Contact saved', description: `${saved.companyName} has been updated.` });
                  onSaved?.(saved);
                  close();
                },
              });
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
