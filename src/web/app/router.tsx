import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { RootRouteErrorBoundary, RouteErrorBoundary } from '@/app/error-boundary';
import { AppLayout } from '@/app/layouts/lazy-app-layout';
import { PublicLayout } from '@/app/layouts/public-layout';
import { SessionLayout } from '@/app/layouts/session-layout';
import { NotFoundPage } from '@/app/not-found-page';
import { isAdminPath } from '@/app/paths';
import { PublicOnlyRoute } from '@/app/public-only-route';
import { FullPageLoader } from '@/components/page-loader';

const AdminNotFoundPage = lazy(() =>
  import('@/app/admin-not-found-page').then((m) => ({ default: m.AdminNotFoundPage })),
);
const LandingPage = lazy(() => import('@/features/landing/routes/landing-page'));
const AuthPage = lazy(() => import('@/features/auth/routes/auth-page'));
const ForgotPasswordPage = lazy(() => import('@/features/auth/routes/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('@/features/auth/routes/reset-password-page'));
const DashboardPage = lazy(() => import('@/features/dashboard/routes/dashboard-page'));
const SettingsPage = lazy(() => import('@/features/settings/routes/settings-page'));
const LaunchPage = lazy(() => import('@/features/settings/routes/launch-page'));
const AdminDashboardPage = lazy(() => import('@/features/admin/routes/admin-dashboard-page'));
const AdminUsersPage = lazy(() => import('@/features/admin/routes/admin-users-page'));
const DevMailboxPage = lazy(() => import('@/features/admin/routes/dev-mailbox-page'));
const SecurityMonitorPage = lazy(() => import('@/features/admin/routes/security-monitor-page'));
const EmailQueuePage = lazy(() => import('@/features/admin/routes/email-queue-page'));
const EmailProcessingPage = lazy(() => import('@/features/admin/routes/email-processing-page'));
const SystemAnalyticsPage = lazy(() => import('@/features/admin/routes/system-analytics-page'));
const AdminAnalyticsPage = lazy(() => import('@/features/admin/routes/admin-analytics-page'));
const DatabaseMonitorPage = lazy(() => import('@/features/admin/routes/database-monitor-page'));
const WebsiteTrafficPage = lazy(() => import('@/features/admin/routes/website-traffic-page'));
const CostOptimizationPage = lazy(() => import('@/features/admin/routes/cost-optimization-page'));
const RecycleBinPage = lazy(() => import('@/features/admin/routes/recycle-bin-page'));
const LogDashboardPage = lazy(() => import('@/features/admin/routes/log-dashboard-page'));
const AlertingPage = lazy(() => import('@/features/admin/routes/alerting-page'));
const CacheMonitorPage = lazy(() => import('@/features/admin/routes/cache-monitor-page'));
const AutomatedSchedulesPage = lazy(() => import('@/features/admin/routes/automated-schedules-page'));
const AdminContactsPage = lazy(() => import('@/features/admin/routes/admin-contacts-page'));
const UserListsPage = lazy(() => import('@/features/admin/routes/user-lists-page'));
const DataEntryManagementPage = lazy(() => import('@/features/admin/routes/data-entry-management-page'));
const AdminSettingsPage = lazy(() => import('@/features/admin/routes/admin-settings-page'));
const AdminDocumentationPage = lazy(() => import('@/features/admin/routes/admin-documentation-page'));
const ScraperPage = lazy(() => import('@/features/scraper/routes/scraper-page'));
const AdminOrdersPage = lazy(() => import('@/features/admin/routes/admin-orders-page'));
const AdminSubscriptionsPage = lazy(() => import('@/features/admin/routes/admin-subscriptions-page'));
const DataEntryPage = lazy(() => import('@/features/data-entry/routes/data-entry-page'));
const LeadDiscoveryPage = lazy(() => import('@/features/contacts/routes/lead-discovery-page'));
const ListDetailPage = lazy(() => import('@/features/contacts/routes/list-detail-page'));
const DatabaseDownloadPage = lazy(() => import('@/features/contacts/routes/database-download-page'));
const ImportPage = lazy(() => import('@/features/contacts/routes/import-page'));
const AdminContactDatabasePage = lazy(() => import('@/features/contacts/routes/admin-contact-database-page'));
const AdminImportPage = lazy(() => import('@/features/contacts/routes/admin-import-page'));
const AdminRecategorizationPage = lazy(
  () => import('@/features/contacts/routes/admin-recategorization-page'),
);
const PricingPage = lazy(() => import('@/features/billing/routes/pricing-page'));
const PaymentPage = lazy(() => import('@/features/billing/routes/payment-page'));
const CheckoutRedirect = lazy(() => import('@/features/billing/routes/checkout-redirect'));
const PaymentSuccessPage = lazy(() => import('@/features/billing/routes/payment-success-page'));
const CompleteSignupPage = lazy(() => import('@/features/billing/routes/complete-signup-page'));
const SubscriptionPage = lazy(() => import('@/features/billing/routes/subscription-page'));
const UpgradePage = lazy(() => import('@/features/billing/routes/upgrade-page'));
const TemplatesPage = lazy(() => import('@/features/templates/routes/templates-page'));
const AdminTemplatesPage = lazy(() => import('@/features/templates/routes/admin-templates-page'));
const CampaignStepsPage = lazy(() => import('@/features/campaigns/routes/steps-page'));
const CampaignStepEditorPage = lazy(() => import('@/features/campaigns/routes/step-editor-page'));
const AdminCampaignStepsPage = lazy(() => import('@/features/campaigns/routes/admin-steps-page'));
const AdminCampaignStepEditorPage = lazy(() => import('@/features/campaigns/routes/admin-step-editor-page'));
const CampaignsPage = lazy(() => import('@/features/campaigns/routes/campaigns-page'));
const CampaignPage = lazy(() => import('@/features/campaigns/routes/campaign-page'));
const InboxPage = lazy(() => import('@/features/inbox/routes/inbox-page'));
const AdminCampaignsPage = lazy(() => import('@/features/campaigns/routes/admin-campaigns-page'));
const AdminCampaignPage = lazy(() => import('@/features/campaigns/routes/admin-campaign-page'));
const NewslettersPage = lazy(() => import('@/features/newsletters/routes/newsletters-page'));
const NewsletterEditorPage = lazy(() => import('@/features/newsletters/routes/newsletter-editor-page'));
const NewsletterReportPage = lazy(() => import('@/features/newsletters/routes/newsletter-report-page'));
const AdminNewslettersPage = lazy(() => import('@/features/newsletters/routes/admin-newsletters-page'));
const AdminNewsletterPage = lazy(() => import('@/features/newsletters/routes/admin-newsletter-page'));
const AnalyticsPage = lazy(() => import('@/features/analytics/routes/analytics-page'));
const HelpPage = lazy(() => import('@/features/help/routes/help-page'));
const StatusPage = lazy(() => import('@/features/help/routes/status-page'));
const FeaturesPage = lazy(() => import('@/features/landing/routes/features-page'));
const ProductPage = lazy(() => import('@/features/landing/routes/product-page'));
const AboutPage = lazy(() => import('@/features/landing/routes/about-page'));
const ContactPage = lazy(() => import('@/features/landing/routes/contact-page'));
const DocsPage = lazy(() => import('@/features/help/routes/docs-page'));
const GuidePage = lazy(() => import('@/features/help/routes/guide-page'));
const KnowledgeBasePage = lazy(() => import('@/features/help/routes/knowledge-base-page'));
const LegalPage = lazy(() => import('@/features/landing/routes/legal-page'));

/** The footer's product pages (one component, content by path) and legal documents. */
const PRODUCT_PATHS = [
  'global-database',
  'business-leads',
  'custom-contact-lists',
  'email-campaigns',
  'email-newsletters',
  'bulk-emails',
  'analytics-reporting',
];
const LEGAL_PATHS = ['privacy', 'terms', 'refund-policy', 'disclaimer', 'cookie-policy'];

/**
 * Unknown addresses: the public 404, except under the admin area (`/admin…` and its legacy aliases), which
 * keeps the admin layout and its guard (others are sent to /dashboard or /auth) and says the console has
 * no such page.
 */
function CatchAll() {
  const { pathname } = useLocation();
  if (!isAdminPath(pathname)) return <NotFoundPage />;
  return (
    <AppLayout>
      <AdminNotFoundPage />
    </AppLayout>
  );
}

function RegisterRedirect() {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  params.set('mode', 'signup');
  return <Navigate to={`/auth?${params}`} replace />;
}

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
 * The app's routes. Every signed-in route sits under AppLayout, which applies the role and subscription
 * guards; anything unknown gets the not-found screen.
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
      // The sign-up form is the auth page's second tab (it says so there when sign-ups are closed).
      { path: 'register', element: <RegisterRedirect /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      {
        // Billing steps and the support pages: public signed out, inside the app shell signed in.
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
              // /templates is public read-only signed out, the full library signed in.
              { path: 'templates', element: <TemplatesPage /> },
              { path: 'help', element: <HelpPage /> },
              { path: 'knowledge-base', element: <KnowledgeBasePage /> },
              { path: 'status', element: <StatusPage /> },
              // The public site: marketing and legal pages, readable signed in or out.
              { path: 'features', element: <FeaturesPage /> },
              ...PRODUCT_PATHS.map((path) => ({ path, element: <ProductPage key={path} /> })),
              { path: 'about', element: <AboutPage /> },
              { path: 'contact', element: <ContactPage /> },
              { path: 'docs', element: <DocsPage /> },
              { path: 'docs/:slug', element: <GuidePage /> },
              ...LEGAL_PATHS.map((path) => ({ path, element: <LegalPage key={path} /> })),
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
              { path: 'launch', element: <LaunchPage /> },
              { path: 'subscription', element: <SubscriptionPage /> },
              { path: 'upgrade', element: <UpgradePage /> },
              { path: 'data-entry', element: <DataEntryPage /> },
              { path: 'lead-discovery', element: <LeadDiscoveryPage /> },
              { path: 'lead-discovery/import', element: <ImportPage /> },
              { path: 'lead-discovery/lists/:listId', element: <ListDetailPage /> },
              { path: 'database-download', element: <DatabaseDownloadPage /> },
              { path: 'contacts', element: <Navigate to="/lead-discovery" replace /> },
              { path: 'admin/contact-database', element: <AdminContactDatabasePage /> },
              { path: 'admin/contact-database/import', element: <AdminImportPage /> },
              { path: 'admin/recategorization', element: <AdminRecategorizationPage /> },
              { path: 'admin-dashboard', element: <AdminDashboardPage /> },
              // The admin area's own root: its dashboard rather than the 404 page.
              { path: 'admin', element: <Navigate to="/admin-dashboard" replace /> },
              { path: 'admin/users', element: <AdminUsersPage /> },
              { path: 'users', element: <Navigate to="/admin/users" replace /> },
              { path: 'admin/dev-mailbox', element: <DevMailboxPage /> },
              { path: 'admin/security-monitor', element: <SecurityMonitorPage /> },
              { path: 'admin/email-queue-status', element: <EmailQueuePage /> },
              { path: 'email-queue-status', element: <Navigate to="/admin/email-queue-status" replace /> },
              { path: 'admin/email-processing-monitor', element: <EmailProcessingPage /> },
              { path: 'admin/system-analytics', element: <SystemAnalyticsPage /> },
              { path: 'system-analytics', element: <Navigate to="/admin/system-analytics" replace /> },
              { path: 'admin/analytics', element: <AdminAnalyticsPage /> },
              { path: 'admin/database-monitor', element: <DatabaseMonitorPage /> },
              { path: 'admin/website-traffic', element: <WebsiteTrafficPage /> },
              { path: 'admin/cost-optimization', element: <CostOptimizationPage /> },
              { path: 'admin/recycle-bin', element: <RecycleBinPage /> },
              { path: 'admin/log-dashboard', element: <LogDashboardPage /> },
              { path: 'admin/alerting-dashboard', element: <AlertingPage /> },
              { path: 'admin/cache-monitor', element: <CacheMonitorPage /> },
              { path: 'admin/automated-schedules', element: <AutomatedSchedulesPage /> },
              { path: 'admin/settings', element: <AdminSettingsPage /> },
              { path: 'admin-settings', element: <Navigate to="/admin/settings" replace /> },
              { path: 'admin/documentation', element: <AdminDocumentationPage /> },
              { path: 'admin/documentation/:slug', element: <AdminDocumentationPage /> },
              { path: 'admin/scraper', element: <ScraperPage /> },
              { path: 'scraper', element: <Navigate to="/admin/scraper" replace /> },
              // Any other console address: the console's own not-found page, never the public 404.
              { path: 'admin/*', element: <AdminNotFoundPage /> },
              { path: 'admin/orders', element: <AdminOrdersPage /> },
              { path: 'admin/contacts', element: <AdminContactsPage /> },
              { path: 'admin/user-lists', element: <UserListsPage /> },
              { path: 'admin/data-entry-management', element: <DataEntryManagementPage /> },
              { path: 'admin/subscriptions', element: <AdminSubscriptionsPage /> },
              { path: 'admin-orders', element: <Navigate to="/admin/orders" replace /> },
              { path: 'admin-subscriptions', element: <Navigate to="/admin/subscriptions" replace /> },
              { path: 'admin/templates', element: <AdminTemplatesPage /> },
              { path: 'admin-templates', element: <Navigate to="/admin/templates" replace /> },
              { path: 'admin/database-manager', element: <Navigate to="/admin/contact-database" replace /> },
              { path: 'contact-sync', element: <Navigate to="/admin-dashboard" replace /> },
              { path: 'campaigns', element: <CampaignsPage /> },
              { path: 'campaigns/:id', element: <CampaignPage /> },
              { path: 'inbox', element: <InboxPage /> },
              { path: 'admin/campaigns', element: <AdminCampaignsPage /> },
              { path: 'admin/campaigns/:id', element: <AdminCampaignPage /> },
              { path: 'campaigns/:campaignId/steps', element: <CampaignStepsPage /> },
              { path: 'campaigns/:campaignId/step/:stepId/edit', element: <CampaignStepEditorPage /> },
              { path: 'admin/campaigns/:campaignId/steps', element: <AdminCampaignStepsPage /> },
              {
                path: 'admin/campaigns/:campaignId/step/:stepId/edit',
                element: <AdminCampaignStepEditorPage />,
              },
              { path: 'newsletters', element: <NewslettersPage /> },
              { path: 'newsletters/editor', element: <NewsletterEditorPage /> },
              { path: 'newsletters/editor/:id', element: <NewsletterEditorPage key="edit" /> },
              { path: 'newsletter-editor', element: <NewsletterEditorPage /> },
              { path: 'newsletters/:id/report', element: <NewsletterReportPage /> },
              { path: 'admin/newsletters', element: <AdminNewslettersPage /> },
              { path: 'admin/newsletters/editor', element: <Navigate to="/admin/newsletters" replace /> },
              { path: 'admin/newsletters/editor/:id', element: <AdminNewsletterPage /> },
              { path: 'admin/newsletter-editor', element: <Navigate to="/admin/newsletters" replace /> },
              { path: 'analytics', element: <AnalyticsPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
