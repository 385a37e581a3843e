import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, ScrollRestoration } from 'react-router';

import { RootRouteErrorBoundary, RouteErrorBoundary } from '@/app/error-boundary';
import { AppLayout } from '@/app/layouts/app-layout';
import { PublicLayout } from '@/app/layouts/public-layout';
import { NotFoundPage } from '@/app/not-found-page';
import { PublicOnlyRoute } from '@/app/public-only-route';
import { FullPageLoader } from '@/components/page-loader';

const LandingPage = lazy(() => import('@/features/landing/routes/landing-page'));
const AuthPage = lazy(() => import('@/features/auth/routes/auth-page'));
const ForgotPasswordPage = lazy(() => import('@/features/auth/routes/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('@/features/auth/routes/reset-password-page'));
const DashboardPage = lazy(() => import('@/features/dashboard/routes/dashboard-page'));
const SettingsPage = lazy(() => import('@/features/settings/routes/settings-page'));
const AdminDashboardPage = lazy(() => import('@/features/admin/routes/admin-dashboard-page'));
const AdminUsersPage = lazy(() => import('@/features/admin/routes/admin-users-page'));
const DevMailboxPage = lazy(() => import('@/features/admin/routes/dev-mailbox-page'));
const DataEntryPage = lazy(() => import('@/features/data-entry/routes/data-entry-page'));

function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
    </>
  );
}

/**
 * Spec §2 routes registered so far. Every signed-in route sits under AppLayout, which applies the route
 * guards of spec §6; anything unknown gets the not-found screen.
 */
export const routes = [
  {
    element: <RootLayout />,
    errorElement: <RootRouteErrorBoundary />,
    children: [
      {
        element: <PublicOnlyRoute />,
        children: [{ element: <PublicLayout />, children: [{ index: true, element: <LandingPage /> }] }],
      },
      { path: 'auth', element: <AuthPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      {
        element: <AppLayout />,
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              { path: 'dashboard', element: <DashboardPage /> },
              { path: 'settings', element: <SettingsPage /> },
              { path: 'data-entry', element: <DataEntryPage /> },
              { path: 'contacts', element: <Navigate to="/lead-discovery" replace /> },
              { path: 'admin-dashboard', element: <AdminDashboardPage /> },
              { path: 'admin/users', element: <AdminUsersPage /> },
              { path: 'admin/dev-mailbox', element: <DevMailboxPage /> },
              { path: 'admin/database-manager', element: <Navigate to="/admin/contact-database" replace /> },
              { path: 'contact-sync', element: <Navigate to="/admin-dashboard" replace /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
