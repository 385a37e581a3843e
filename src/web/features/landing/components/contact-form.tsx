import { zodResolver } from '@hookform/resolvers/zod';
import {
  CONTACT_TOPIC_LABELS,
  CONTACT_TOPICS,
  type ContactMessageInput,
  type ContactTopic,
  contactMessageInputSchema,
  contactMessageSentSchema,
} from '@shared/support';
import { useMutation } from '@tanstack/react-query';
import { Loader2, MailCheck, Send } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { useAuth } from '@/hooks/use-auth';
import { apiRequest } from '@/lib/api';
import { getErrorMessage } from '@/lib/errors';
import { useHydrationSettled } from '@/lib/prerender-state';

/** The message form of /contact: stored for the team, with a copy mailed to the sender. */
export function ContactForm({ topic }: { topic: ContactTopic }) {
  const { user } = useAuth();
  // Prerendered, the form is shown at once but opens for typing when the page is live: text typed before
  // that would be dropped when the page comes to life.
  const live = useHydrationSettled();
  const form = useForm<z.input<typeof contactMessageInputSchema>, unknown, ContactMessageInput>({
    resolver: zodResolver(contactMessageInputSchema),
    defaultValues: { name: '', email: '', topic, message: '', website: '' },
  });
  // A channel card chose the topic; a signed-in sender need not type who they are.
  useEffect(() => form.setValue('topic', topic), [form, topic]);
  useEffect(() => {
    if (!user) return;
    if (!form.getValues('name'))
      form.setValue('name', [user.firstName, user.lastName].filter(Boolean).join(' '));
    if (!form.getValues('email')) form.setValue('email', user.email);
  }, [form, user]);

  const send = useMutation({
    mutationFn: async (input: ContactMessageInput) =>
      contactMessageSentSchema.parse(
        await (await apiRequest('POST', '/api/public/contact-messages', input)).json(),
      ),
  });

  if (send.isSuccess) {
    return (
      <div className="flex flex-col items-center gap-3 py-8 text-center" data-testid="contact-form-sent">
        <span className="flex size-12 items-center justify-center rounded-full bg-success/15 text-success">
          <MailCheck className="size-6" aria-hidden="true" />
        </span>
        <h3 className="text-lg font-semibold">Message sent</h3>
        <p className="max-w-md text-sm text-muted-foreground" role="status">
          {send.data.message}
        </p>
        <Button
          variant="outline"
          onClick={() => {
            form.reset({ ...form.getValues(), message: '' });
            send.reset();
          }}
        >
          Write another message
        </Button>
      </div>
    );
  }

  return (
    <Form {...form}>
      <form
        onSubmit={form.handleSubmit((values) => send.mutate(values))}
        className="grid gap-5"
        noValidate
        data-testid="contact-form"
        // Sending needs the app: a prerendered page holding it loads the app at once.
        data-needs-app=""
      >
        <fieldset disabled={!live} className="contents">
          {send.isError && (
            <Alert variant="destructive">
              <AlertDescription>
                {getErrorMessage(send.error, 'Your message was not sent. Please try again.')}
              </AlertDescription>
            </Alert>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Your name</FormLabel>
                  <FormControl>
                    <Input autoComplete="name" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="email"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Email</FormLabel>
                  <FormControl>
                    <Input type="email" autoComplete="email" placeholder="you@company.com" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
          </div>
          <FormField
            control={form.control}
            name="topic"
            render={({ field }) => (
              <FormItem>
                <FormLabel>What is it about?</FormLabel>
                <Select value={field.value} onValueChange={field.onChange}>
                  <FormControl>
                    <SelectTrigger className="w-full sm:w-64" data-testid="contact-topic">
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    {CONTACT_TOPICS.map((value) => (
                      <SelectItem key={value} value={value}>
                        {CONTACT_TOPIC_LABELS[value]}
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
            name="message"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Message</FormLabel>
                <FormControl>
                  <Textarea
                    rows={6}
                    placeholder="Tell us what you need and the email you sign in with."
                    {...field}
                  />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {/* Hidden from people (and from screen readers); robots fill in every field they find. */}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label>
              Website
              <input type="text" tabIndex={-1} autoComplete="off" {...form.register('website')} />
            </label>
          </div>
          <Button
            type="submit"
            className="justify-self-start"
            disabled={send.isPending}
            data-testid="contact-submit"
          >
            {send.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <Send aria-hidden="true" />
            )}
            Send message
          </Button>
        </fieldset>
      </form>
    </Form>
  );
}
