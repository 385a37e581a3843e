import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/hooks/use-auth';
import { getErrorStatus } from '@/lib/errors';

/**
 * A super admin who opens another user's campaign by its customer address (a link from a log, an email
 * or a support ticket) finds no campaign of their own: the admin view of the same campaign is where it
 * lives for them. Returns true while that redirect is under way, so the page shows nothing meanwhile.
 */
export function useAdminCampaignFallback(error: unknown, adminPath: string): boolean {
  const { user } = useAuth();
  const navigate = useNavigate();
  const redirect = user?.role === 'super_admin' && getErrorStatus(error) === 404;
  useEffect(() => {
    if (redirect) navigate(adminPath, { replace: true });
  }, [redirect, adminPath, navigate]);
  return redirect;
}
