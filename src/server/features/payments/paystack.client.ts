import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A thin Paystack REST client (https://paystack.com/docs/api/): bearer secret key, configurable base URL
 * (the fake Paystack in tests and the embedded default), a timeout on every call, typed answers.
 */

export interface PaystackAuthorization {
  authorization_code: string;
  bin?: string | null;
  last4?: string | null;
  exp_month?: string | null;
  exp_year?: string | null;
  channel?: string | null;
  card_type?: string | null;
  bank?: string | null;
  country_code?: string | null;
  brand?: string | null;
  reusable?: boolean | null;
  signature?: string | null;
}

export interface PaystackCustomer {
  id?: number;
  email?: string;
  customer_code?: string;
}

/** What verify and charge_authorization describe: one transaction. */
export interface PaystackTransaction {
  id?: number;
  /** success | failed | abandoned | ongoing | pending | processing | queued | reversed */
  status: string;
  reference: string;
  /** kobo */
  amount: number;
  currency: string;
  channel?: string | null;
  gateway_response?: string | null;
  paid_at?: string | null;
  paidAt?: string | null;
  metadata?: unknown;
  authorization?: PaystackAuthorization | null;
  customer?: PaystackCustomer | null;
}

export interface InitializeTransactionInput {
  email: string;
  /** kobo */
  amount: number;
  currency: 'NGN';
  reference: string;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
  channels?: string[];
}

export interface InitializedTransaction {
  authorization_url: string;
  access_code: string;
  reference: string;
}

export interface ChargeAuthorizationInput {
  email: string;
  amount: number;
  currency: 'NGN';
  authorizationCode: string;
  reference: string;
  metadata?: Record<string, unknown>;
}

/** Paystack answered with an error (bad key, unknown reference, refused charge). */
export class PaystackError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

/** Paystack could not be reached, timed out or answered something that is not its JSON. */
export class PaystackUnavailableError extends Error {}

export interface PaystackClient {
  readonly baseUrl: string;
  initializeTransaction(input: InitializeTransactionInput): Promise<InitializedTransaction>;
  verifyTransaction(reference: string): Promise<PaystackTransaction>;
  chargeAuthorization(input: ChargeAuthorizationInput): Promise<PaystackTransaction>;
}

export interface CreatePaystackClientOptions {
  secretKey: string;
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function createPaystackClient(options: CreatePaystackClientOptions): PaystackClient {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new PaystackUnavailableError(`Paystack ${method} ${path} failed: ${(error as Error).message}`);
    }
    let json: { status?: boolean; message?: string; data?: T };
    try {
      json = (await response.json()) as typeof json;
    } catch {
      throw new PaystackUnavailableError(
        `Paystack ${method} ${path} answered ${response.status} without JSON`,
      );
    }
    if (response.status >= 500) {
      throw new PaystackUnavailableError(`Paystack ${method} ${path} answered ${response.status}`);
    }
    if (!response.ok || json.status !== true || json.data === undefined) {
      throw new PaystackError(json.message ?? `Paystack answered ${response.status}`, response.status);
    }
    return json.data;
  }

  return {
    baseUrl,
    initializeTransaction: (input) =>
      call<InitializedTransaction>('POST', '/transaction/initialize', {
        email: input.email,
        amount: input.amount,
        currency: input.currency,
        reference: input.reference,
        callback_url: input.callbackUrl,
        metadata: input.metadata,
        channels: input.channels,
      }),
    verifyTransaction: (reference) =>
      call<PaystackTransaction>('GET', `/transaction/verify/${encodeURIComponent(reference)}`),
    chargeAuthorization: (input) =>
      call<PaystackTransaction>('POST', '/transaction/charge_authorization', {
        email: input.email,
        amount: input.amount,
        currency: input.currency,
        authorization_code: input.authorizationCode,
        reference: input.reference,
        metadata: input.metadata,
      }),
  };
}

/** Paystack signs each webhook: `x-paystack-signature` = hex HMAC-SHA512 of the raw body with the secret key. */
export function signPaystackBody(rawBody: Buffer | string, secretKey: string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

export function isValidPaystackSignature(
  rawBody: Buffer,
  signature: string | undefined,
  secretKey: string,
): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = Buffer.from(signPaystackBody(rawBody, secretKey), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Test keys and the built-in fake charge no real card. */
export function isTestModeKey(secretKey: string | undefined): boolean {
  return !secretKey || secretKey.startsWith('sk_test_');
}

/** The client for this environment, or null when no secret key is configured (payments answer 503). */
export function paystackFromEnv(env: {
  PAYSTACK_SECRET_KEY?: string;
  PAYSTACK_BASE_URL: string;
}): PaystackClient | null {
  if (!env.PAYSTACK_SECRET_KEY) return null;
  return createPaystackClient({ secretKey: env.PAYSTACK_SECRET_KEY, baseUrl: env.PAYSTACK_BASE_URL });
}
