import { zodResolver } from '@hookform/resolvers/zod';
import { type User, updateProfileSchema } from '@shared/auth';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useUpdateProfile } from '../api/update-profile';
import { applyServerFieldErrors } from '../lib/form-errors';

type ProfileFormInput = z.input<typeof updateProfileSchema>;
type ProfileFormOutput = z.output<typeof updateProfileSchema>;

function toFormValues(user: User): ProfileFormInput {
  return { firstName: user.firstName, lastName: user.lastName ?? '' };
}

export function ProfileCard({ user }: { user: User }) {
  const updateProfile = useUpdateProfile();
  const form = useForm<ProfileFormInput, unknown, ProfileFormOutput>({
    resolver: zodResolver(updateProfileSchema),
    defaultValues: toFormValues(user),
  });
  const { reset } = form;

  // Follow the cached user (saved here, or refreshed elsewhere) unless the user is mid-edit.
  useEffect(() => {
    if (!form.formState.isDirty) reset(toFormValues(user));
  }, [user, reset, form.formState.isDirty]);

  const onSubmit = form.handleSubmit((values) => {
    updateProfile.mutate(
      { firstName: values.firstName, lastName: values.lastName ?? '' },
      {
        onSuccess: (saved) => {
          reset(toFormValues(saved));
          toast({ title: 'Profile updated', description: 'Your name has been saved.' });
        },
        onError: (error) => {
          if (applyServerFieldErrors(error, ['firstName', 'lastName'], form.setError)) return;
          toast({
            title: 'Profile not saved',
            description: getErrorMessage(error, 'We could not save your profile. Please try again.'),
            variant: 'destructive',
          });
        },
      },
    );
  });

  return (
    <Card id="account-settings" className="scroll-mt-24" data-testid="profile-section">
      <CardHeader>
        <CardTitle>
          <h2>Profile</h2>
        </CardTitle>
        <CardDescription>The name your account and your sender signatures use.</CardDescription>
      </CardHeader>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate aria-label="Profile">
          <CardContent className="grid gap-5 sm:grid-cols-2">
            <FormField
              control={form.control}
              name="firstName"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>First name</FormLabel>
                  <FormControl>
                    <Input autoComplete="given-name" data-testid="profile-first-name" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="lastName"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    Last name <span className="font-normal text-muted-foreground">(optional)</span>
                  </FormLabel>
                  <FormControl>
                    <Input
                      autoComplete="family-name"
                      data-testid="profile-last-name"
                      {...field}
                      value={field.value ?? ''}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <div className="grid gap-2 sm:col-span-2">
              <Label htmlFor="profile-email">Email</Label>
              <Input
                id="profile-email"
                type="email"
                value={user.email}
                readOnly
                aria-describedby="profile-email-hint"
                className="bg-muted/50 text-muted-foreground"
                data-testid="profile-email"
              />
              <p id="profile-email-hint" className="text-sm text-muted-foreground">
                You sign in with this address. To move your account to a new email, contact support.
              </p>
            </div>
          </CardContent>
          <CardFooter className="mt-6 justify-end gap-2 border-t pt-6">
            <Button
              type="button"
              variant="ghost"
              onClick={() => reset(toFormValues(user))}
              disabled={!form.formState.isDirty || updateProfile.isPending}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={updateProfile.isPending} data-testid="profile-save">
              {updateProfile.isPending ? 'Saving…' : 'Save changes'}
            </Button>
          </CardFooter>
        </form>
      </Form>
    </Card>
  );
}
