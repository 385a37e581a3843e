import { CONTACT_TOPIC_LABELS, type ContactMessage, type ContactMessageList } from '@shared/support';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Check, Inbox, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { apiRequest } from '@/lib/api';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatNumber } from '@/lib/format';

type Filter = 'new' | 'handled' | 'all';
const KEY = '/api/admin/contact-messages';

/** Messages people sent from the public /contact page: read, answer by email, mark handled. */
export function ContactMessagesCard() {
  const [filter, setFilter] = useState<Filter>('new');
  const queryClient = useQueryClient();
  const messages = useQuery<ContactMessageList>({ queryKey: [`${KEY}?status=${filter}`], staleTime: 30_000 });
  const update = useMutation({
    mutationFn: async ({ id, status }: { id: string; status: 'new' | 'handled' }) =>
      (await apiRequest('PATCH', `${KEY}/${id}`, { status })).json() as Promise<ContactMessage>,
    onSuccess: (message) => {
      toast({ title: message.status === 'handled' ? 'Marked as handled' : 'Moved back to new' });
      void queryClient.invalidateQueries({
        predicate: (query) => String(query.queryKey[0]).startsWith(KEY),
      });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Not saved',
        description: getErrorMessage(error, 'Please try again.'),
      }),
  });

  const columns: ColumnDef<ContactMessage, unknown>[] = [
    {
      id: 'from',
      header: 'From',
      cell: ({ row }) => (
        <div className="min-w-0 max-w-56">
          <p className="truncate font-medium">{row.original.name}</p>
          <a className="truncate text-xs text-primary hover:underline" href={`mailto:${row.original.email}`}>
            {row.original.email}
          </a>
        </div>
      ),
    },
    {
      id: 'topic',
      header: 'Topic',
      cell: ({ row }) => <Badge variant="outline">{CONTACT_TOPIC_LABELS[row.original.topic]}</Badge>,
    },
    {
      id: 'message',
      header: 'Message',
      cell: ({ row }) => (
        <p className="max-w-md whitespace-pre-wrap break-words text-sm" data-testid="contact-message-text">
          {row.original.message}
        </p>
      ),
    },
    {
      id: 'received',
      header: 'Received',
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-sm">{formatDateTime(row.original.createdAt)}</span>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) =>
        row.original.status === 'new' ? (
          <Button
            size="sm"
            variant="outline"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: row.original.id, status: 'handled' })}
            data-testid="contact-message-handled"
          >
            <Check aria-hidden="true" />
            Handled
          </Button>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: row.original.id, status: 'new' })}
          >
            <RotateCcw aria-hidden="true" />
            Reopen
          </Button>
        ),
    },
  ];

  return (
    <Card data-testid="contact-messages">
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            Contact messages
            {messages.data && messages.data.newCount > 0 && (
              <Badge variant="warning" data-testid="contact-messages-new-count">
                {formatNumber(messages.data.newCount)} new
              </Badge>
            )}
          </h2>
        </CardTitle>
        <CardDescription>
          Sent from the public Contact page. Each sender got a confirmation email; answer them by email.
        </CardDescription>
        <CardAction>
          <Tabs value={filter} onValueChange={(value) => setFilter(value as Filter)}>
            <TabsList>
              <TabsTrigger value="new">New</TabsTrigger>
              <TabsTrigger value="handled">Handled</TabsTrigger>
              <TabsTrigger value="all">All</TabsTrigger>
            </TabsList>
          </Tabs>
        </CardAction>
      </CardHeader>
      <CardContent>
        {messages.isError ? (
          <QueryError
            title="The messages could not be loaded"
            error={messages.error}
            onRetry={() => messages.refetch()}
          />
        ) : (
          <DataTable
            columns={columns}
            rows={messages.data?.messages}
            getRowId={(row) => row.id}
            loading={messages.isPending}
            empty={{
              icon: Inbox,
              title: filter === 'new' ? 'No new messages' : 'No messages',
              description: 'Messages sent from /contact appear here.',
            }}
            testId="contact-messages-table"
            rowTestId="contact-message-row"
            skeletonRows={3}
          />
        )}
      </CardContent>
    </Card>
  );
}
