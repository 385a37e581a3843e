import { AppLayout } from '@/app/layouts/lazy-app-layout';
import { PublicLayout } from '@/app/layouts/public-layout';
import { FullPageLoader } from '@/components/page-loader';
import { useAuth } from '@/hooks/use-auth';

/**
 * The billing routes (/pricing, /payment, /checkout, /payment-success, /complete-signup) are both public
 * and signed-in routes: a visitor sees them in the marketing frame, a signed-in user inside the app shell
 * (whose guard applies the role rules).
 */
export function SessionLayout() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullPageLoader />;
  return user ? <AppLayout /> : <PublicLayout />;
}
