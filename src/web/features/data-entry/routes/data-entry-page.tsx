import type { DirectoryContact } from '@shared/directory';
import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DirectoryContactDialog } from '@/components/contacts/directory-contact-dialog';
import { FoundBusinessesReview } from '@/components/scraper/found-businesses-review';
import { useAuth } from '@/hooks/use-auth';
import { CONTACTS_PATH, type DirectoryPage, dataEntryKey } from '../api/data-entry';
import { AddContactCard } from '../components/add-contact-card';
import { StatsCards } from '../components/stats-cards';
import { VerificationQueue } from '../components/verification-queue';

/** /data-entry, the data entry officer's home: today's numbers, Add contact, the queue. */
export default function DataEntryPage() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);

  // An edit shows in the queue at once, without reloading every page of it.
  const applyEdit = (saved: DirectoryContact) =>
    queryClient.setQueryData<InfiniteData<DirectoryPage>>([...dataEntryKey, 'queue'], (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((item) => (item.id === saved.id ? saved : item)),
            })),
          }
        : data,
    );

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="data-entry-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Data Entry Dashboard</h1>
        <p className="text-muted-foreground">
          Welcome{user?.firstName ? `, ${user.firstName}` : ''}. Add businesses to the directory and verify
          the ones waiting in the queue.
        </p>
      </header>
      <StatsCards />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-2">
        <VerificationQueue onEdit={(contact) => setEditing(contact.id)} />
        <AddContactCard onOpenContact={(contact) => setEditing(contact.id)} />
      </div>
      <FoundBusinessesReview />
      <DirectoryContactDialog
        contactId={editing}
        basePath={CONTACTS_PATH}
        onOpenChange={(open) => !open && setEditing(null)}
        onSaved={applyEdit}
        invalidateKeys={[[...dataEntryKey, 'stats']]}
      />
    </div>
  );
}
