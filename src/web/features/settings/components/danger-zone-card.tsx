import { deleteAccountSchema } from '@shared/auth';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { PasswordInput } from '@/components/password-input';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/errors';
import { USER_QUERY_KEY } from '@/lib/query-client';
import { useDeleteAccount } from '../api/delete-account';

export function DangerZoneCard() {
  const queryClient = useQueryClient();
  const deleteAccount = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const passwordId = useId();
  const errorId = useId();

  const onOpenChange = (next: boolean) => {
    if (deleteAccount.isPending) return;
    setOpen(next);
    if (!next) {
      setPassword('');
      setError(null);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = deleteAccountSchema.safeParse({ password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Password is required');
      return;
    }
    setError(null);
    deleteAccount.mutate(parsed.data, {
      onSuccess: () => {
        // The session is gone with the account: forget everything and start over on the sign-in screen.
        queryClient.setQueryData(USER_QUERY_KEY, null);
        queryClient.clear();
        window.location.assign('/auth');
      },
      onError: (failure) => {
        setError(getErrorMessage(failure, 'We could not delete your account. Please try again.'));
      },
    });
  };

  return (
    <Card className="border-destructive/40" data-testid="danger-zone" id="danger-zone">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <AlertTriangle className="size-4" aria-hidden="true" />
          <h2>Danger zone</h2>
        </CardTitle>
        <CardDescription>Permanent actions on your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1">
          <p className="font-medium">Delete account</p>
          <p className="text-sm text-muted-foreground">
            Deletes your profile, contact lists, campaigns, newsletters and sender accounts and signs you out
            everywhere. This cannot be undone.
          </p>
        </div>
        <AlertDialog open={open} onOpenChange={onOpenChange}>
          <AlertDialogTrigger asChild>
            <Button variant="destructive" className="shrink-0" data-testid="delete-account">
              <Trash2 aria-hidden="true" />
              Delete account
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <form onSubmit={onSubmit} noValidate className="grid gap-4">
              <AlertDialogHeader>
                <AlertDialogTitle>Delete your account?</AlertDialogTitle>
                <AlertDialogDescription>
                  Your account and everything in it will be permanently deleted and every session signed out.
                  Enter your password to confirm.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <div className="grid gap-2">
                <Label htmlFor={passwordId}>Password</Label>
                <PasswordInput
                  id={passwordId}
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? errorId : undefined}
                  disabled={deleteAccount.isPending}
                  data-testid="delete-account-password"
                  toggleTestId="toggle-delete-account-password"
                />
                {error && (
                  <p id={errorId} role="alert" className="text-sm text-destructive">
                    {error}
                  </p>
                )}
              </div>
              <AlertDialogFooter>
                <AlertDialogCancel type="button" disabled={deleteAccount.isPending}>
                  Cancel
                </AlertDialogCancel>
                <Button
                  type="submit"
                  variant="destructive"
                  disabled={!password || deleteAccount.isPending}
                  data-testid="confirm-delete-account"
                >
                  {deleteAccount.isPending ? 'Deleting…' : 'Delete my account'}
                </Button>
              </AlertDialogFooter>
            </form>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
