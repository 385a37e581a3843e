import type { Services } from '../server/services';

/*
 * What job handlers get: the database and the queue always; the rest where the process has them (a
 * worker-only process has no HTTP pieces). Its own module, so handlers do not import workers.ts, which
 * imports them.
 */
export type WorkerServices = Pick<Services, 'db' | 'queue'> &
  Partial<Pick<Services, 'env' | 'mailer' | 'paystack' | 'database' | 'secrets' | 'devMailbox'>>;
