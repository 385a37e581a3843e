import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, ScrollRestoration } from 'react-router';

import { RootRouteErrorBoundary, RouteErrorBoundary } from '@/app/error-boundary';
import { AppLayout } from '@/app/layouts/app-layout';
import { PublicLayout } from '@/app/layouts/public-layout';
import { SessionLayout } from '@/app/layouts/session-layout';
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
const AdminOrdersPage = lazy(() => import('@/features/admin/routes/admin-orders-page'));
const AdminSubscriptionsPage = lazy(() => import('@/features/admin/routes/admin-subscriptions-page'));
const DataEntryPage = lazy(() => import('@/features/data-entry/routes/data-entry-page'));
const LeadDiscoveryPage = lazy(() => import('@/features/contacts/routes/lead-discovery-page'));
const ListDetailPage = lazy(() => import('@/features/contacts/routes/list-detail-page'));
const ImportPage = lazy(() => import('@/features/contacts/routes/import-page'));
const AdminContactDatabasePage = lazy(() => import('@/features/contacts/routes/admin-contact-database-page'));
const AdminImportPage = lazy(() => import('@/features/contacts/routes/admin-import-page'));
const PricingPage = lazy(() => import('@/features/billing/routes/pricing-page'));
const PaymentPage = lazy(() => import('@/features/billing/routes/payment-page'));
const CheckoutRedirect = lazy(() => import('@/features/billing/routes/checkout-redirect'));
const PaymentSuccessPage = lazy(() => import('@/features/billing/routes/payment-success-page'));
const CompleteSignupPage = lazy(() => import('@/features/billing/routes/complete-signup-page'));
const SubscriptionPage = lazy(() => import('@/features/billing/routes/subscription-page'));
const UpgradePage = lazy(() => import('@/features/billing/routes/upgrade-page'));

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
        // Billing steps: public signed out, inside the app shell signed in (spec §2).
        element: <SessionLayout />,
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              { path: 'pricing', element: <PricingPage /> },
              { path: 'payment', element: <PaymentPage /> },
              { path: 'checkout', element: <CheckoutRedirect /> },
              { path: 'payment-success', element: <PaymentSuccessPage /> },
              { path: 'complete-signup', element: <CompleteSignupPage /> },
            ],
          },
        ],
      },
      {
        element: <AppLayout />,
        children: [
          {
            errorElement: <RouteErrorBoundary />,
            children: [
              { path: 'dashboard', element: <DashboardPage /> },
              { path: 'settings', element: <SettingsPage /> },
              { path: 'subscription', element: <SubscriptionPage /> },
              { path: 'upgrade', element: <UpgradePage /> },
              { path: 'data-entry', element: <DataEntryPage /> },
              { path: 'lead-discovery', element: <LeadDiscoveryPage /> },
              { path: 'lead-discovery/import', element: <ImportPage /> },
              { path: 'lead-discovery/lists/:listId', element: <ListDetailPage /> },
              { path: 'contacts', element: <Navigate to="/lead-discovery" replace /> },
              { path: 'admin/contact-database', element: <AdminContactDatabasePage /> },
              { path: 'admin/contact-database/import', element: <AdminImportPage /> },
              { path: 'admin-dashboard', element: <AdminDashboardPage /> },
              { path: 'admin/users', element: <AdminUsersPage /> },
              { path: 'admin/dev-mailbox', element: <DevMailboxPage /> },
              { path: 'admin/orders', element: <AdminOrdersPage /> },
              { path: 'admin/subscriptions', element: <AdminSubscriptionsPage /> },
              { path: 'admin-orders', element: <Navigate to="/admin/orders" replace /> },
              { path: 'admin-subscriptions', element: <Navigate to="/admin/subscriptions" replace /> },
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
