import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordSchema, messageSchema } from '@shared/auth';
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, Loader2, MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { usePageMeta } from '@/hooks/use-page-meta';
import { apiRequest } from '@/lib/api';
import { getErrorMessage } from '@/lib/errors';

import { AuthShell } from '../components/auth-shell';

type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export default function ForgotPasswordPage() {
  const [searchParams] = useSearchParams();
  usePageMeta({
    title: 'Reset your password | Tambari',
    description: 'Request a link to reset your Tambari password.',
    robots: 'noindex, nofollow',
  });

  const form = useForm<z.input<typeof forgotPasswordSchema>, unknown, ForgotPasswordInput>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: searchParams.get('email') ?? '' },
  });

  const request = useMutation({
    mutationFn: async (input: ForgotPasswordInput) => {
      const res = await apiRequest('POST', '/api/auth/forgot-password', input);
      return messageSchema.parse(await res.json());
    },
  });

  if (request.isSuccess) {
    return (
      <AuthShell>
        <div className="space-y-6 text-center" data-testid="forgot-password-success">
          <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-secondary text-primary">
            <MailCheck className="size-7" aria-hidden="true" />
          </div>
          <div className="space-y-2">
            <h1 className="text-2xl font-bold tracking-tight">Check your email</h1>
            <p className="text-muted-foreground" role="status">
              {request.data.message}
            </p>
          </div>
          <p className="text-sm text-muted-foreground">
            The link works once and expires after a short time. Nothing arrived? Check your spam folder or{' '}
            <button
              type="button"
              className="font-medium text-primary underline-offset-4 hover:underline"
              onClick={() => request.reset()}
            >
              send another link
            </button>
            .
          </p>
          <Button asChild variant="outline" className="w-full">
            <Link to="/auth">
              <ArrowLeft aria-hidden="true" />
              Back to sign in
            </Link>
          </Button>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Forgot your password?</h1>
        <p className="text-muted-foreground">
          Enter the email you signed up with and we'll send you a link to choose a new password.
        </p>
      </div>
      <Form {...form}>
        <form
          onSubmit={form.handleSubmit((values) => request.mutate(values))}
          className="space-y-5"
          noValidate
          data-testid="forgot-password-form"
        >
          {request.isError && (
            <Alert variant="destructive">
              <AlertDescription>
                {getErrorMessage(request.error, 'We could not send the reset link. Please try again.')}
              </AlertDescription>
            </Alert>
          )}
          <FormField
            control={form.control}
            name="email"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Email</FormLabel>
                <FormControl>
                  <Input
                    type="email"
                    autoComplete="email"
                    placeholder="you@company.com"
                    data-testid="forgot-password-email"
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
            disabled={request.isPending}
            data-testid="forgot-password-submit"
          >
            {request.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Send reset link
          </Button>
          <Button asChild variant="ghost" className="w-full">
            <Link to="/auth">
              <ArrowLeft aria-hidden="true" />
              Back to sign in
            </Link>
          </Button>
        </form>
      </Form>
    </AuthShell>
  );
}
