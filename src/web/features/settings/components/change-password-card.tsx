import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordSchema, MESSAGES } from '@shared/auth';
import { ShieldCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useChangePassword } from '../api/change-password';
import { applyServerFieldErrors } from '../lib/form-errors';

const formSchema = changePasswordSchema
  .extend({ confirmPassword: z.string().min(1, 'Please confirm your new password') })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The passwords do not match',
  })
  .refine((values) => values.newPassword !== values.currentPassword, {
    path: ['newPassword'],
    message: 'Choose a password different from your current one',
  });

type FormValues = z.infer<typeof formSchema>;

const EMPTY: FormValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordCard() {
  const changePassword = useChangePassword();
  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: EMPTY });

  const onSubmit = form.handleSubmit(({ currentPassword, newPassword }) => {
    changePassword.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset(EMPTY);
          toast({
            title: 'Password changed',
            description: 'Your password is updated and every other session has been signed out.',
          });
        },
        onError: (error) => {
          const message = getErrorMessage(error, 'We could not change your password. Please try again.');
          if (!applyServerFieldErrors(error, ['currentPassword', 'newPassword'], form.setError)) {
            if (message === MESSAGES.commonPassword)
              form.setError('newPassword', { type: 'server', message });
          }
          toast({ title: 'Password not changed', description: message, variant: 'destructive' });
        },
      },
    );
  });

  return (
    <Card data-testid="change-password-section" id="security" className="scroll-mt-24">
      <CardHeader>
        <CardTitle>
          <h2>Change password</h2>
        </CardTitle>
        <CardDescription>
          Use at least 6 characters; a longer passphrase is harder to guess. Changing your password signs you
          out on every other device, and this one stays signed in.
        </CardDescription>
      </CardHeader>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate aria-label="Change password">
          <CardContent className="grid gap-5">
            <FormField
              control={form.control}
              name="currentPassword"
              render={({ field }) => (
                <FormItem className="sm:max-w-sm">
                  <FormLabel>Current password</FormLabel>
                  <FormControl>
                    <PasswordInput
                      autoComplete="current-password"
                      data-testid="current-password"
                      toggleTestId="toggle-current-password"
                      {...field}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="grid items-start gap-5 sm:grid-cols-2">
              <FormField
                control={form.control}
                name="newPassword"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>New password</FormLabel>
                    <FormControl>
                      <PasswordInput
                        autoComplete="new-password"
                        data-testid="new-password"
                        toggleTestId="toggle-new-password"
                        {...field}
                      />
                    </FormControl>
                    <FormDescription>At least 6 characters.</FormDescription>
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
                        data-testid="confirm-password"
                        toggleTestId="toggle-confirm-password"
                        {...field}
                      />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
          </CardContent>
          <CardFooter className="mt-6 flex-col items-stretch gap-3 border-t pt-6 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <ShieldCheck className="size-4 shrink-0 text-success" aria-hidden="true" />
              Other sessions end when the password changes.
            </p>
            <Button type="submit" disabled={changePassword.isPending} data-testid="change-password-submit">
              {changePassword.isPending ? 'Updating…' : 'Update password'}
            </Button>
          </CardFooter>
        </form>
      </Form>
    </Card>
  );
}
