import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { appPage } from '@/app/app-page';
import { RootRouteErrorBoundary, RouteErrorBoundary } from '@/app/error-boundary';
import { AppLayout } from '@/app/layouts/lazy-app-layout';
import { PublicLayout } from '@/app/layouts/public-layout';
import { SessionLayout } from '@/app/layouts/session-layout';
import { NotFoundPage } from '@/app/not-found-page';
import { isAdminPath } from '@/app/paths';
import { PublicOnlyRoute } from '@/app/public-only-route';
import { FullPageLoader } from '@/components/page-loader';

const AdminNotFoundPage = appPage('adminNotFoundPage');
const LandingPage = lazy(() => import('@/features/landing/routes/landing-page'));
const AuthPage = lazy(() => import('@/features/auth/routes/auth-page'));
const ForgotPasswordPage = lazy(() => import('@/features/auth/routes/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('@/features/auth/routes/reset-password-page'));
const DashboardPage = appPage('dashboardPage');
const SettingsPage = appPage('settingsPage');
const LaunchPage = appPage('launchPage');
const AdminDashboardPage = appPage('adminDashboardPage');
const AdminUsersPage = appPage('adminUsersPage');
const DevMailboxPage = appPage('devMailboxPage');
const SecurityMonitorPage = appPage('securityMonitorPage');
const EmailQueuePage = appPage('emailQueuePage');
const EmailProcessingPage = appPage('emailProcessingPage');
const SystemAnalyticsPage = appPage('systemAnalyticsPage');
const AdminAnalyticsPage = appPage('adminAnalyticsPage');
const DatabaseMonitorPage = appPage('databaseMonitorPage');
const WebsiteTrafficPage = appPage('websiteTrafficPage');
const CostOptimizationPage = appPage('costOptimizationPage');
const RecycleBinPage = appPage('recycleBinPage');
const LogDashboardPage = appPage('logDashboardPage');
const AlertingPage = appPage('alertingPage');
const CacheMonitorPage = appPage('cacheMonitorPage');
const AutomatedSchedulesPage = appPage('automatedSchedulesPage');
const AdminContactsPage = appPage('adminContactsPage');
const UserListsPage = appPage('userListsPage');
const DataEntryManagementPage = appPage('dataEntryManagementPage');
const AdminSettingsPage = appPage('adminSettingsPage');
const AdminDocumentationPage = appPage('adminDocumentationPage');
const ScraperPage = appPage('scraperPage');
const AdminOrdersPage = appPage('adminOrdersPage');
const AdminSubscriptionsPage = appPage('adminSubscriptionsPage');
const DataEntryPage = appPage('dataEntryPage');
const LeadDiscoveryPage = appPage('leadDiscoveryPage');
const ListDetailPage = appPage('listDetailPage');
const DatabaseDownloadPage = appPage('databaseDownloadPage');
const ImportPage = appPage('importPage');
const AdminContactDatabasePage = appPage('adminContactDatabasePage');
const AdminImportPage = appPage('adminImportPage');
const AdminRecategorizationPage = appPage('adminRecategorizationPage');
const PricingPage = lazy(() => import('@/features/billing/routes/pricing-page'));
const PaymentPage = lazy(() => import('@/features/billing/routes/payment-page'));
const CheckoutRedirect = lazy(() => import('@/features/billing/routes/checkout-redirect'));
const PaymentSuccessPage = lazy(() => import('@/features/billing/routes/payment-success-page'));
const CompleteSignupPage = lazy(() => import('@/features/billing/routes/complete-signup-page'));
const SubscriptionPage = appPage('subscriptionPage');
const UpgradePage = appPage('upgradePage');
const TemplatesPage = lazy(() => import('@/features/templates/routes/templates-page'));
const AdminTemplatesPage = appPage('adminTemplatesPage');
const CampaignStepsPage = appPage('campaignStepsPage');
const CampaignStepEditorPage = appPage('campaignStepEditorPage');
const AdminCampaignStepsPage = appPage('adminCampaignStepsPage');
const AdminCampaignStepEditorPage = appPage('adminCampaignStepEditorPage');
const CampaignsPage = appPage('campaignsPage');
const CampaignPage = appPage('campaignPage');
const InboxPage = appPage('inboxPage');
const AdminCampaignsPage = appPage('adminCampaignsPage');
const AdminCampaignPage = appPage('adminCampaignPage');
const NewslettersPage = appPage('newslettersPage');
const NewsletterEditorPage = appPage('newsletterEditorPage');
const NewsletterReportPage = appPage('newsletterReportPage');
const AdminNewslettersPage = appPage('adminNewslettersPage');
const AdminNewsletterPage = appPage('adminNewsletterPage');
const AnalyticsPage = appPage('analyticsPage');
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
