import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, messageSchema, passwordSchema } from '@shared/auth';
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, KeyRound, Loader2, TriangleAlert } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';

import { PasswordInput } from '@/components/password-input';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { usePageMeta } from '@/hooks/use-page-meta';
import { toast } from '@/hooks/use-toast';
import { apiRequest } from '@/lib/api';
import { getErrorMessage, getErrorStatus } from '@/lib/errors';

import { AuthShell } from '../components/auth-shell';

/** A delay before leaving for sign in, like the sign-in redirects, so the success toast can be read. */
const RESET_REDIRECT_MS = 1500;

const resetFormSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
type ResetFormValues = z.infer<typeof resetFormSchema>;

function InvalidLink({ message }: { message: string }) {
  return (
    <div className="space-y-6" data-testid="reset-password-invalid">
      <Alert variant="destructive">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>Reset link not valid</AlertTitle>
        <AlertDescription>{message}</AlertDescription>
      </Alert>
      <Button asChild className="w-full">
        <Link to="/forgot-password">Request a new link</Link>
      </Button>
      <Button asChild variant="ghost" className="w-full">
        <Link to="/auth">
          <ArrowLeft aria-hidden="true" />
          Back to sign in
        </Link>
      </Button>
    </div>
  );
}

export default function ResetPasswordPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const token = searchParams.get('token')?.trim() ?? '';
  const timer = useRef<number | undefined>(undefined);

  usePageMeta({
    title: 'Choose a new password | Tambari',
    description: 'Set a new password for your Tambari account.',
    robots: 'noindex, nofollow',
  });

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const form = useForm<ResetFormValues>({
    resolver: zodResolver(resetFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const reset = useMutation({
    mutationFn: async (password: string) => {
      const res = await apiRequest('POST', '/api/auth/reset-password', { token, password });
      return messageSchema.parse(await res.json());
    },
    onSuccess: (data) => {
      toast({ title: 'Password updated', description: data.message || MESSAGES.resetDone });
      timer.current = window.setTimeout(() => navigate('/auth', { replace: true }), RESET_REDIRECT_MS);
    },
  });

  // A 400 means the token is unknown, used or expired; other failures leave the form open to retry.
  const linkInvalid = reset.isError && getErrorStatus(reset.error) === 400;

  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-secondary text-primary">
          <KeyRound className="size-6" aria-hidden="true" />
        </div>
        <h1 className="text-3xl font-bold tracking-tight">Choose a new password</h1>
        <p className="text-muted-foreground">
          Use at least 6 characters. You'll sign in with it right after.
        </p>
      </div>
      {!token ? (
        <InvalidLink message={MESSAGES.resetInvalid} />
      ) : linkInvalid ? (
        <InvalidLink message={getErrorMessage(reset.error, MESSAGES.resetInvalid)} />
      ) : reset.isSuccess ? (
        <Alert variant="success" data-testid="reset-password-success">
          <AlertTitle>Password updated</AlertTitle>
          <AlertDescription>
            {reset.data.message || MESSAGES.resetDone} Taking you to sign in…
          </AlertDescription>
        </Alert>
      ) : (
        <Form {...form}>
          <form
            onSubmit={form.handleSubmit((values) => reset.mutate(values.password))}
            className="space-y-5"
            noValidate
            data-testid="reset-password-form"
          >
            {reset.isError && (
              <Alert variant="destructive">
                <AlertDescription>
                  {getErrorMessage(reset.error, 'We could not reset your password. Please try again.')}
                </AlertDescription>
              </Alert>
            )}
            <FormField
              control={form.control}
              name="password"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>New password</FormLabel>
                  <FormControl>
                    <PasswordInput autoComplete="new-password" data-testid="reset-password-new" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="confirmPassword"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Confirm new password</FormLabel>
                  <FormControl>
                    <PasswordInput
                      autoComplete="new-password"
                      data-testid="reset-password-confirm"
                      toggleTestId="toggle-confirm-password-visibility"
                      {...field}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button
              type="submit"
              className="w-full"
              size="lg"
              disabled={reset.isPending}
              data-testid="reset-password-submit"
            >
              {reset.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Reset password
            </Button>
          </form>
        </Form>
      )}
    </AuthShell>
  );
}
