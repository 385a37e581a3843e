import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { ChangePasswordCard } from '../components/change-password-card';
import { DangerZoneCard } from '../components/danger-zone-card';
import { DataExportCard } from '../components/data-export-card';
import { ProfileCard } from '../components/profile-card';
import { SenderAccountsCard } from '../components/sender-accounts/sender-accounts-card';
import { SessionsCard } from '../components/sessions-card';

/**
 * /settings, with the #account-settings anchor on the Profile section and #sender-accounts on the
 * mailboxes campaigns are sent from.
 */
export default function SettingsPage() {
  const { user } = useAuth();
  const { hash } = useLocation();
  const ready = Boolean(user);

  useEffect(() => {
    if (!ready || !hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView({ block: 'start' });
  }, [hash, ready]);

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6" data-testid="settings-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="text-muted-foreground">
          Manage your profile, the mailboxes you send from, your password and signed-in devices.
        </p>
      </header>

      {user ? (
        <ProfileCard user={user} />
      ) : (
        <div className="space-y-4 rounded-xl border p-6" role="status" aria-label="Loading profile">
          <Skeleton className="h-5 w-24" />
          <div className="grid gap-4 sm:grid-cols-2">
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
          <Skeleton className="h-9" />
        </div>
      )}
      {user && <SenderAccountsCard user={user} />}
      <ChangePasswordCard />
      <SessionsCard />
      <DataExportCard />
      <DangerZoneCard />
    </div>
  );
}
