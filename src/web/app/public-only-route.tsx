import { Navigate, Outlet } from 'react-router';

import { getRoleHome } from '@/app/paths';
import { FullPageLoader } from '@/components/page-loader';
import { useAuth } from '@/hooks/use-auth';

/** A signed-in visitor of the landing page goes to their role's home instead. */
export function PublicOnlyRoute() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullPageLoader />;
  if (user) return <Navigate to={getRoleHome(user.role)} replace />;
  return <Outlet />;
}
