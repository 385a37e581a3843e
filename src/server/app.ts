import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import proxyAddr from '@fastify/proxy-addr';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type DatabaseHandle, openDatabase } from './db/client';
import type { Env } from './env';
import { accountRoutes } from './features/account/account.routes';
import { adminRoutes } from './features/admin/admin.routes';
import { adminAnalyticsRoutes } from './features/admin-analytics/admin-analytics.routes';
import { adminCampaignsRoutes } from './features/admin-campaigns/admin-campaigns.routes';
import { adminDataRoutes } from './features/admin-data/admin-data.routes';
import { adminMonitorsRoutes } from './features/admin-monitors/admin-monitors.routes';
import { adminOperationsRoutes } from './features/admin-operations/admin-operations.routes';
import { aiRoutes } from './features/ai/ai.routes';
import { analyticsRoutes } from './features/analytics/analytics.routes';
import { clearSignInFailures } from './features/auth/account-throttles.service';
import { authRoutes } from './features/auth/auth.routes';
import { campaignStatsRoutes } from './features/campaign-stats/campaign-stats.routes';
import { campaignsRoutes } from './features/campaigns/campaigns.routes';
import { pauseSendingOfSuspendedUser } from './features/campaigns/campaigns.service';
import { campaignPreviewRoutes } from './features/campaigns/preview.routes';
import { testRunRoutes } from './features/campaigns/test-run.routes';
import { costOptimizationRoutes } from './features/cost-optimization/cost-optimization.routes';
import { currencyRoutes } from './features/currency/currency.routes';
import { createRatesCache } from './features/currency/currency.service';
import { databaseDownloadRoutes } from './features/database-download/database-download.routes';
import { devMailboxRoutes } from './features/dev-mailbox/dev-mailbox.routes';
import { type DevMailbox, startDevMailbox } from './features/dev-mailbox/dev-mailbox.server';
import { directoryRoutes } from './features/directory/directory.routes';
import { documentationRoutes } from './features/documentation/documentation.routes';
import { healthRoutes } from './features/health/health.routes';
import { importsRoutes } from './features/imports/imports.routes';
import { inboxRoutes } from './features/inbox/inbox.routes';
import { leadsRoutes } from './features/leads/leads.routes';
import { listsRoutes } from './features/lists/lists.routes';
import { newslettersRoutes } from './features/newsletters/newsletters.routes';
import { billingAdminRoutes } from './features/payments/billing-admin.routes';
import { PAYSTACK_WEBHOOK_PATH, paymentsRoutes } from './features/payments/payments.routes';
import { paystackFromEnv } from './features/payments/paystack.client';
import { plansRoutes } from './features/plans/plans.routes';
import { listPricingPlans, seedPricingPlans } from './features/plans/plans.service';
import { platformSettingsRoutes } from './features/platform-settings/platform-settings.routes';
import {
  assertSignupsOpen,
  getSystemMailIdentity,
} from './features/platform-settings/platform-settings.service';
import { recycleBinRoutes } from './features/recycle-bin/recycle-bin.routes';
import { referenceRoutes } from './features/reference/reference.routes';
import { referenceCitiesCacheView, referenceCountsCacheView } from './features/reference/reference.service';
import { schedulesRoutes } from './features/schedules/schedules.routes';
import { scraperRoutes } from './features/scraper/scraper.routes';
import { segmentsRoutes } from './features/segments/segments.routes';
import { resealSenderSecrets } from './features/sender-accounts/reseal-secrets';
import { senderAccountsRoutes } from './features/sender-accounts/sender-accounts.routes';
import { isPublicSignupPost, signupFormsRoutes } from './features/signup-forms/signup-forms.routes';
import { siteTrafficRoutes } from './features/site-traffic/site-traffic.routes';
import { supportRoutes } from './features/support/support.routes';
import { suppressionRoutes } from './features/suppression/suppression.routes';
import { restoreSuppressionTombstones } from './features/suppression/suppression.service';
import { templatesRoutes } from './features/templates/templates.routes';
import { isUnsubscribePost, trackingRoutes } from './features/tracking/tracking.routes';
import { createTrackedMessageCache } from './features/tracking/tracking.service';
import { createDatabaseTrackingBuffer } from './features/tracking/tracking-buffer';
import { createTrackingFastPath } from './features/tracking/tracking-fast-path';
import { createTrackingResponder } from './features/tracking/tracking-responder';
import { verificationRoutes } from './features/verification/verification.routes';
import { startQueue } from './jobs/queue';
import { createAuth } from './lib/auth';
import { createCacheRegistry } from './lib/cache-registry';
import { errorHandler, notFoundHandler } from './lib/error-handler';
import { escapeHtml } from './lib/html';
import { createHttpServerWithFastPath, type FastPath } from './lib/http-server';
import { registerInputHygiene } from './lib/input-hygiene';
import { createLogSink } from './lib/log-sink';
import { loggerOptions } from './lib/logger';
import { createSystemMailer, type SystemMailer } from './lib/mailer';
import { isAllowedOrigin } from './lib/origin';
import { registerPublicSite } from './lib/public-site';
import type { Secrets } from './lib/secrets';
import { createSessionCache } from './lib/session-cache';
import { seedLibraryTemplates } from './seed/templates/index';

export interface BuildAppOptions {
  env: Env;
  secrets: Secrets;
  /** An open database to reuse; otherwise one is opened from env (DATABASE_URL or PGlite in DATA_DIR). */
  database?: DatabaseHandle;
  /** PGlite only: in-memory when false. Default true. */
  persistent?: boolean;
  /** In-memory PGlite only: start from this dump (tests; see `OpenDatabaseOptions.snapshot`). */
  pgliteSnapshot?: Blob;
  /** Whether this process runs job workers and cron (embedded mode and worker processes). */
  runsWorkers?: boolean;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env, secrets } = options;
  // Trust exactly TRUST_PROXY hops of X-Forwarded-For (proxy-addr counts hops from the socket).
  const trustProxy = (_address: string, hop: number) => hop < env.TRUST_PROXY;
  const processName = options.runsWorkers ? 'app' : 'web';
  // Lines logged before the database opens wait in the sink's queue.
  const logSink = createLogSink({ process: processName });
  const app = Fastify({
    logger: loggerOptions(env, logSink, processName),
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: false } },
    serverFactory: (handler) => createHttpServerWithFastPath(handler, () => trackingFastPath),
  }).withTypeProvider<ZodTypeProvider>();
  // Set once the services exist; until then every request goes to Fastify.
  let trackingFastPath: FastPath | null = null;

  // The API speaks JSON only: a text/plain body gets a clear 415 instead of a confusing type error.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // NUL bytes and lone surrogates answer 400 on every route, before validation and any query.
  registerInputHygiene(app);

  const database =
    options.database ??
    (await openDatabase({
      url: env.DATABASE_URL,
      dataDir: options.persistent === false ? undefined : path.join(env.DATA_DIR, 'pglite'),
      snapshot: options.pgliteSnapshot,
    }));
  const ownsDatabase = !options.database;
  await database.migrate();
  logSink.attach(database.db);
  // After an ENCRYPTION_KEY rotation: stored mailbox passwords move to the new key before anything reads them.
  await resealSenderSecrets({ db: database.db, secrets, log: app.log });
  await seedPricingPlans({ db: database.db });
  await seedLibraryTemplates({ db: database.db });

  const queue = await startQueue({
    database,
    url: env.DATABASE_URL,
    runsWorkers: options.runsWorkers ?? false,
  });

  let devMailbox: DevMailbox | null = null;
  if (!env.SMTP_URL) {
    devMailbox = await startDevMailbox({ db: database.db, port: env.DEV_MAILBOX_PORT, log: app.log });
    app.log.info(`System mail goes to the development mailbox (SMTP 127.0.0.1:${devMailbox.port}).`);
  }
  const mailer = createSystemMailer({
    smtpUrl: env.SMTP_URL ?? `smtp://127.0.0.1:${devMailbox?.port}?ignoreTLS=true`,
    from: env.SMTP_FROM,
    identity: () => getSystemMailIdentity({ db: database.db }),
    log: app.log,
  });

  const trustedOrigins = allowedOrigins(env);
  const auth = createAuth({
    db: database.db,
    appUrl: env.APP_URL,
    secret: secrets.sessionSecret,
    secureCookies: env.NODE_ENV === 'production',
    trustedOrigins,
    log: app.log,
    sendResetPassword: (input) => sendPasswordResetMail({ env, mailer, app, ...input }),
    // Whoever proved they own the mailbox is not kept out by a lock someone else's guesses caused.
    onPasswordReset: async ({ email }) => {
      await clearSignInFailures({ db: database.db, email });
    },
    // Unsubscribes and bounces outlive a deleted account: a new one with its email gets them back.
    onUserCreated: async (userId) => {
      const restored = await restoreSuppressionTombstones({ db: database.db, userId });
      if (restored > 0)
        app.log.info({ userId, restored }, 'suppressions kept from a deleted account restored');
    },
  });

  const paystack = paystackFromEnv(env);
  const trackingBuffer = createDatabaseTrackingBuffer({
    db: database.db,
    log: app.log,
    flushIntervalMs: env.TRACKING_FLUSH_MS,
  });
  const caches = createCacheRegistry();
  const trackedMessages = createTrackedMessageCache({ db: database.db });
  caches.register({
    name: 'tracking-tokens',
    description: 'Messages behind open and click tokens, so a tracking hit costs no query',
    ...trackedMessages.registryView(),
  });
  const currencyRates = createRatesCache({ url: env.CURRENCY_RATES_URL, log: app.log });
  caches.register({
    name: 'currency-rates',
    description: 'NGN display rates from the public rate file, refreshed hourly',
    ...currencyRates.registryView(),
  });
  caches.register({
    name: 'reference-cities',
    description: 'Cities of each country, sorted and folded for search (reference data)',
    ...referenceCitiesCacheView(),
  });
  caches.register({
    name: 'reference-country-counts',
    description: 'Directory contacts per country for the country pickers, kept a minute',
    ...referenceCountsCacheView(),
  });
  const sessions = createSessionCache<Awaited<ReturnType<typeof auth.api.getSession>>>();
  caches.register({
    name: 'sessions',
    description: 'Signed-in sessions by cookie hash, kept 5 seconds; emptied by every state change',
    ...sessions.registryView(),
  });
  const trackingResponder = createTrackingResponder({
    cache: trackedMessages,
    buffer: trackingBuffer,
    log: app.log,
  });
  trackingFastPath = createTrackingFastPath({
    responder: trackingResponder,
    clientIp: (request) => proxyAddr(request, trustProxy),
  });
  app.decorate('services', {
    env,
    database,
    db: database.db,
    auth,
    queue,
    mailer,
    secrets,
    devMailbox,
    paystack,
    trackingBuffer,
    trackingResponder,
    currencyRates,
    logSink,
    caches,
    sessions,
    processName,
  });

  app.addHook('onClose', async () => {
    // Buffered opens and clicks are written before the database closes (the HTTP server has already
    // finished its requests: Fastify runs this hook after closing it).
    await trackingBuffer.close();
    mailer.close();
    await devMailbox?.close();
    await queue.stop({ graceful: true, timeout: 5_000 }).catch(() => {});
    await logSink.close();
    if (ownsDatabase) await database.close();
  });

  // Cross-site state changes are refused whatever the cookie's SameSite says (defence in depth).
  app.addHook('onRequest', async (request, reply) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
    // Paystack's server calls carry no Origin; the route authenticates them by their HMAC signature.
    if (request.url.split('?')[0] === PAYSTACK_WEBHOOK_PATH) return;
    // RFC 8058 one-click unsubscribes come from mail providers' servers; the token is the authority.
    if (isUnsubscribePost(request.method, request.url)) return;
    // Subscribe forms embedded on the user's own site post from that site.
    if (isPublicSignupPost(request.method, request.url)) return;
    if (!isAllowedOrigin(request, trustedOrigins)) {
      return reply
        .code(403)
        .send({ message: 'This request came from another site and was refused.', code: 'forbidden' });
    }
  });

  // A state change may end or change a session (sign-out, revocation, suspension, a new role or plan):
  // the sessions this process keeps are forgotten before its answer leaves.
  app.addHook('onSend', async (request) => {
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) sessions.clear();
  });

  const paystackOrigins = paystackCspOrigins(env);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...paystackOrigins.script],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'https:'],
        'connect-src': ["'self'", ...paystackOrigins.connect],
        'frame-src': ["'self'", ...paystackOrigins.frame],
        'upgrade-insecure-requests': env.NODE_ENV === 'production' ? [] : null,
      },
    },
    hsts: env.NODE_ENV === 'production',
  });
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Tambari API', version: '0.1.0', description: 'Cold email, newsletters and B2B leads.' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(healthRoutes);
  await app.register(authRoutes, { beforeRegister: () => assertSignupsOpen({ db: database.db }) });
  await app.register(accountRoutes);
  await app.register(aiRoutes);
  // Suspending an account stops its sending in the same transaction (campaigns.service.ts).
  await app.register(adminRoutes, {
    stopSending: async (tx, userId) => ({ ...(await pauseSendingOfSuspendedUser(tx, userId)) }),
  });
  await app.register(adminMonitorsRoutes);
  await app.register(adminAnalyticsRoutes);
  await app.register(adminOperationsRoutes);
  await app.register(schedulesRoutes);
  await app.register(adminDataRoutes);
  await app.register(platformSettingsRoutes);
  await app.register(documentationRoutes);
  await app.register(supportRoutes);
  await app.register(devMailboxRoutes);
  await app.register(plansRoutes);
  await app.register(paymentsRoutes);
  await app.register(billingAdminRoutes);
  await app.register(currencyRoutes);
  await app.register(importsRoutes);
  await app.register(referenceRoutes);
  await app.register(leadsRoutes);
  await app.register(listsRoutes);
  await app.register(databaseDownloadRoutes);
  await app.register(segmentsRoutes);
  await app.register(signupFormsRoutes);
  await app.register(suppressionRoutes);
  await app.register(senderAccountsRoutes);
  await app.register(directoryRoutes);
  await app.register(scraperRoutes);
  await app.register(verificationRoutes);
  await app.register(trackingRoutes);
  await app.register(newslettersRoutes);
  await app.register(campaignsRoutes);
  await app.register(campaignPreviewRoutes);
  await app.register(testRunRoutes);
  await app.register(campaignStatsRoutes);
  await app.register(inboxRoutes);
  await app.register(analyticsRoutes);
  await app.register(adminCampaignsRoutes);
  await app.register(templatesRoutes);
  await app.register(siteTrafficRoutes);
  await app.register(costOptimizationRoutes);
  await app.register(recycleBinRoutes);

  const webDist = path.resolve(env.WEB_DIST_DIR);
  if (existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (scripts/prerender-plugin.ts).
      preCompressed: true,
      // Vite fingerprints everything under assets/, so those files never change under the same name.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  // robots.txt, sitemap.xml and the prerendered public pages (issue #19 §3).
  registerPublicSite(app, {
    appUrl: env.APP_URL,
    webDist,
    livePricingPlans: () => listPricingPlans({ db: app.services.db }),
  });

  return app;
}

/** The Paystack popup's script, its checkout frame and API; in test mode also the fake's loopback origin. */
function paystackCspOrigins(env: Env) {
  const script = new Set(['https://js.paystack.co']);
  const connect = new Set(['https://api.paystack.co']);
  const frame = new Set(['https://checkout.paystack.com']);
  for (const url of [env.PAYSTACK_INLINE_SCRIPT_URL, env.PAYSTACK_BASE_URL]) {
    const origin = new URL(url).origin;
    script.add(origin);
    connect.add(origin);
    frame.add(origin);
  }
  return { script: [...script], connect: [...connect], frame: [...frame] };
}

function allowedOrigins(env: Env): string[] {
  const origins = new Set([new URL(env.APP_URL).origin]);
  for (const origin of env.TRUSTED_ORIGINS?.split(',') ?? []) if (origin.trim()) origins.add(origin.trim());
  if (env.NODE_ENV !== 'production') {
    // `npm run dev` serves the client from Vite, which proxies /api to this server.
    origins.add(`http://localhost:${process.env.VITE_PORT ?? 5173}`);
    origins.add(`http://127.0.0.1:${process.env.VITE_PORT ?? 5173}`);
  }
  return [...origins];
}

async function sendPasswordResetMail(input: {
  env: Env;
  mailer: SystemMailer;
  app: FastifyInstance;
  email: string;
  firstName: string;
  token: string;
}): Promise<void> {
  const link = `${input.env.APP_URL}/reset-password?token=${encodeURIComponent(input.token)}`;
  const name = input.firstName || 'there';
  // Sent without awaiting by the caller's timing: the answer must not reveal whether the account exists.
  input.mailer
    .send({
      to: input.email,
      subject: 'Reset your Tambari password',
      text: `Hello ${name},\n\nSomeone asked to reset the password of your Tambari account. If it was you, open this link within 30 minutes:\n\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.`,
      html: `<p>Hello ${escapeHtml(name)},</p><p>Someone asked to reset the password of your Tambari account. If it was you, open this link within 30 minutes:</p><p><a href="${escapeHtml(link)}">Reset my password</a></p><p>If it was not you, ignore this email: your password stays as it is.</p>`,
    })
    .catch((error: unknown) => input.app.log.error({ err: error }, 'password reset email could not be sent'));
}
