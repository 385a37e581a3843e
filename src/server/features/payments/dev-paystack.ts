import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A development adapter: a fake Paystack on loopback with the REST calls Tambari makes, a control API for
 * tests, signed webhooks, and `/inline.js`, a stand-in for Paystack's popup script. `npm start` runs it when
 * no Paystack keys are configured outside production (test mode), so the whole payment flow works on a
 * machine without internet; the tests use it as their Paystack. Nothing in production imports it.
 */

export interface FakeTransaction {
  id: number;
  reference: string;
  accessCode: string;
  email: string;
  /** kobo asked for at initialize (or charged) */
  amount: number;
  /** kobo actually paid (a test may settle a different amount) */
  paidAmount: number;
  currency: string;
  status: 'pending' | 'success' | 'failed' | 'abandoned' | 'ongoing';
  metadata: unknown;
  channel: string;
  gatewayResponse: string;
  paidAt: string | null;
  authorizationCode: string;
  customerCode: string;
  callbackUrl: string | null;
  createdAt: string;
}

export interface FakePaystack {
  url: string;
  port: number;
  secretKey: string;
  publicKey: string;
  inlineScriptUrl: string;
  transactions: Map<string, FakeTransaction>;
  /** Every charge_authorization call, in order. */
  charges: FakeTransaction[];
  /** Settles a transaction as the popup (or a bank) would; sends charge.success when a webhook URL is set. */
  complete(reference: string, status: 'success' | 'failed' | 'abandoned', amount?: number): FakeTransaction;
  /** The next `count` charge_authorization calls are declined. */
  failNextCharges(count?: number): void;
  /** The signed charge.success event for a settled transaction (body and signature header). */
  chargeSuccessEvent(reference: string): { body: string; signature: string };
  /** Signs any body as Paystack would. */
  sign(body: string): string;
  close(): Promise<void>;
}

export interface StartFakePaystackOptions {
  port?: number;
  host?: string;
  secretKey?: string;
  publicKey?: string;
  /** Where charge.success is POSTed once a transaction succeeds (unset: no webhooks). */
  webhookUrl?: string;
}

const CARD = {
  brand: 'visa',
  cardType: 'visa ',
  last4: '4081',
  expMonth: '12',
  expYear: '2030',
  bin: '408408',
};

export async function startFakePaystack(options: StartFakePaystackOptions = {}): Promise<FakePaystack> {
  const secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(12).toString('hex')}`;
  const publicKey = options.publicKey ?? 'pk_test_tambari_fake';
  const host = options.host ?? '127.0.0.1';
  const transactions = new Map<string, FakeTransaction>();
  const charges: FakeTransaction[] = [];
  let failCharges = 0;
  let nextId = 1_000_000;
  let baseUrl = '';

  const sign = (body: string) => createHmac('sha512', secretKey).update(body).digest('hex');

  function transactionData(tx: FakeTransaction) {
    const settled = tx.status === 'success';
    return {
      id: tx.id,
      domain: 'test',
      status: tx.status,
      reference: tx.reference,
      amount: tx.status === 'pending' ? tx.amount : tx.paidAmount,
      currency: tx.currency,
      channel: tx.channel,
      gateway_response: tx.gatewayResponse,
      message: null,
      paid_at: tx.paidAt,
      paidAt: tx.paidAt,
      created_at: tx.createdAt,
      metadata: tx.metadata,
      authorization: settled
        ? {
            authorization_code: tx.authorizationCode,
            bin: CARD.bin,
            last4: CARD.last4,
            exp_month: CARD.expMonth,
            exp_year: CARD.expYear,
            channel: 'card',
            card_type: CARD.cardType,
            bank: 'TEST BANK',
            country_code: 'NG',
            brand: CARD.brand,
            reusable: true,
            signature: `SIG_${tx.customerCode}`,
          }
        : null,
      customer: { id: 1, email: tx.email, customer_code: tx.customerCode },
    };
  }

  function chargeSuccessEvent(reference: string) {
    const tx = transactions.get(reference);
    if (!tx) throw new Error(`fake Paystack: no transaction ${reference}`);
    const body = JSON.stringify({ event: 'charge.success', data: transactionData(tx) });
    return { body, signature: sign(body) };
  }

  async function deliverWebhook(reference: string) {
    if (!options.webhookUrl) return;
    const { body, signature } = chargeSuccessEvent(reference);
    await fetch(options.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
      body,
      signal: AbortSignal.timeout(10_000),
    }).catch(() => {
      // Paystack retries failed deliveries; the app's verify call covers the gap.
    });
  }

  function complete(reference: string, status: 'success' | 'failed' | 'abandoned', amount?: number) {
    const tx = transactions.get(reference);
    if (!tx) throw new Error(`fake Paystack: no transaction ${reference}`);
    tx.status = status;
    tx.paidAmount = amount ?? tx.amount;
    tx.gatewayResponse = status === 'success' ? 'Approved' : status === 'failed' ? 'Declined' : 'Abandoned';
    tx.paidAt = status === 'success' ? new Date().toISOString() : null;
    if (status === 'success') void deliverWebhook(reference);
    return tx;
  }

  function customerCode(email: string) {
    return `CUS_${createHmac('sha256', 'fake').update(email.toLowerCase()).digest('hex').slice(0, 14)}`;
  }

  function newTransaction(input: {
    reference: string;
    email: string;
    amount: number;
    currency: string;
    metadata: unknown;
    callbackUrl?: unknown;
  }): FakeTransaction {
    return {
      id: nextId++,
      reference: input.reference,
      accessCode: `ac_${randomBytes(10).toString('hex')}`,
      email: input.email,
      amount: input.amount,
      paidAmount: input.amount,
      currency: input.currency,
      status: 'pending',
      metadata: input.metadata ?? null,
      channel: 'card',
      gatewayResponse: 'Pending',
      paidAt: null,
      authorizationCode: `AUTH_${randomBytes(6).toString('hex')}`,
      customerCode: customerCode(input.email),
      callbackUrl: typeof input.callbackUrl === 'string' ? input.callbackUrl : null,
      createdAt: new Date().toISOString(),
    };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, { status: false, message: String((error as Error)?.message ?? error) });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'content-type');
    res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();

    if (req.method === 'GET' && path === '/inline.js') {
      res.writeHead(200, {
        'content-type': 'application/javascript; charset=utf-8',
        'cache-control': 'no-store',
      });
      return void res.end(inlineScript(baseUrl));
    }

    // The hosted checkout page (authorization_url), for a browser that cannot open the popup.
    const checkout = path.match(/^\/checkout\/(ac_[0-9a-f]+)$/);
    if (req.method === 'GET' && checkout) {
      const tx = [...transactions.values()].find((t) => t.accessCode === checkout[1]);
      if (!tx) return send(res, 404, { status: false, message: 'Unknown access code' });
      const back = tx.callbackUrl
        ? `${tx.callbackUrl}${tx.callbackUrl.includes('?') ? '&' : '?'}trxref=${encodeURIComponent(tx.reference)}&reference=${encodeURIComponent(tx.reference)}`
        : null;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(
        `<!doctype html><html><head><title>Tambari test checkout</title></head><body><script src="/inline.js"></script><script>new PaystackPop().resumeTransaction(${JSON.stringify(tx.accessCode)}, { onSuccess: function () { ${back ? `location.href = ${JSON.stringify(back)};` : "document.body.textContent = 'Paid.';"} }, onCancel: function () { ${back ? `location.href = ${JSON.stringify(back)};` : "document.body.textContent = 'Cancelled.';"} } });</script></body></html>`,
      );
    }

    // The popup stand-in's own calls (no secret key: the browser only knows the access code).
    const byAccess = path.match(/^\/__popup\/(ac_[0-9a-f]+)(\/pay)?$/);
    if (byAccess) {
      const tx = [...transactions.values()].find((t) => t.accessCode === byAccess[1]);
      if (!tx) return send(res, 404, { status: false, message: 'Unknown access code' });
      if (req.method === 'POST' && byAccess[2]) {
        complete(tx.reference, 'success');
        return send(res, 200, { status: true, data: { reference: tx.reference, status: tx.status } });
      }
      return send(res, 200, {
        status: true,
        data: { reference: tx.reference, amount: tx.amount, currency: tx.currency, email: tx.email },
      });
    }

    if (path.startsWith('/__control/')) {
      const body = await readJson(req);
      const completeMatch = path.match(/^\/__control\/complete\/(.+)$/);
      if (req.method === 'POST' && completeMatch) {
        const reference = decodeURIComponent(completeMatch[1]!);
        if (!transactions.has(reference))
          return send(res, 404, { status: false, message: 'No such reference' });
        const status = (body.status as 'success' | 'failed' | 'abandoned') ?? 'success';
        const tx = complete(reference, status, typeof body.amount === 'number' ? body.amount : undefined);
        return send(res, 200, { status: true, data: transactionData(tx) });
      }
      if (req.method === 'POST' && path === '/__control/fail-next-charge') {
        failCharges += typeof body.count === 'number' ? body.count : 1;
        return send(res, 200, { status: true, data: { failNext: failCharges } });
      }
      return send(res, 404, { status: false, message: 'Unknown control call' });
    }

    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, { status: false, message: 'Invalid key' });
    }

    if (req.method === 'POST' && path === '/transaction/initialize') {
      const body = await readJson(req);
      const amount = Number(body.amount);
      if (typeof body.email !== 'string' || !body.email.includes('@')) {
        return send(res, 400, { status: false, message: 'Invalid Email Address Passed' });
      }
      if (!Number.isInteger(amount) || amount < 100) {
        return send(res, 400, { status: false, message: 'Invalid Amount Sent' });
      }
      const reference =
        typeof body.reference === 'string' && body.reference
          ? body.reference
          : randomBytes(8).toString('hex');
      if (transactions.has(reference))
        return send(res, 400, { status: false, message: 'Duplicate Transaction Reference' });
      const tx = newTransaction({
        reference,
        email: body.email,
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'NGN',
        metadata: body.metadata,
        callbackUrl: body.callback_url,
      });
      transactions.set(reference, tx);
      return send(res, 200, {
        status: true,
        message: 'Authorization URL created',
        data: {
          authorization_url: `${baseUrl}/checkout/${tx.accessCode}`,
          access_code: tx.accessCode,
          reference,
        },
      });
    }

    const verify = path.match(/^\/transaction\/verify\/(.+)$/);
    if (req.method === 'GET' && verify) {
      const tx = transactions.get(decodeURIComponent(verify[1]!));
      if (!tx) return send(res, 400, { status: false, message: 'Transaction reference not found' });
      return send(res, 200, { status: true, message: 'Verification successful', data: transactionData(tx) });
    }

    if (req.method === 'POST' && path === '/transaction/charge_authorization') {
      const body = await readJson(req);
      const known = [...transactions.values()].find((t) => t.authorizationCode === body.authorization_code);
      if (!known) return send(res, 400, { status: false, message: 'Invalid authorization code' });
      const reference =
        typeof body.reference === 'string' && body.reference
          ? body.reference
          : randomBytes(8).toString('hex');
      if (transactions.has(reference))
        return send(res, 400, { status: false, message: 'Duplicate Transaction Reference' });
      const tx = newTransaction({
        reference,
        email: String(body.email ?? known.email),
        amount: Number(body.amount),
        currency: typeof body.currency === 'string' ? body.currency : 'NGN',
        metadata: body.metadata,
      });
      tx.authorizationCode = known.authorizationCode;
      tx.customerCode = known.customerCode;
      transactions.set(reference, tx);
      charges.push(tx);
      if (failCharges > 0) {
        failCharges--;
        tx.status = 'failed';
        tx.gatewayResponse = 'Insufficient Funds';
      } else {
        tx.status = 'success';
        tx.paidAmount = tx.amount;
        tx.gatewayResponse = 'Approved';
        tx.paidAt = new Date().toISOString();
      }
      return send(res, 200, { status: true, message: 'Charge attempted', data: transactionData(tx) });
    }

    return send(res, 404, { status: false, message: `No route ${req.method} ${path}` });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${host}:${port}`;

  return {
    url: baseUrl,
    port,
    secretKey,
    publicKey,
    inlineScriptUrl: `${baseUrl}/inline.js`,
    transactions,
    charges,
    complete,
    failNextCharges: (count = 1) => {
      failCharges += count;
    },
    chargeSuccessEvent,
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The stand-in for https://js.paystack.co/v2/inline.js: `new PaystackPop().resumeTransaction(accessCode,
 * { onSuccess, onCancel, onError, onLoad })` opens a small in-page modal. Pay settles the transaction on the
 * fake (which also sends the signed webhook) and calls onSuccess({ reference }); Close calls onCancel.
 */
function inlineScript(baseUrl: string): string {
  return `(() => {
  const BASE = ${JSON.stringify(baseUrl)};
  const naira = (kobo) => '\\u20a6' + new Intl.NumberFormat('en-NG', { maximumFractionDigits: 0 }).format(kobo / 100);
  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text) node.textContent = text;
    return node;
  }
  class PaystackPop {
    resumeTransaction(accessCode, callbacks) {
      const cb = callbacks || {};
      const overlay = el('div', { 'data-testid': 'fake-paystack-modal', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Tambari test checkout',
        style: 'position:fixed;inset:0;z-index:2147483647;background:rgba(15,23,42,.55);display:flex;align-items:center;justify-content:center;font-family:system-ui,sans-serif' });
      const box = el('div', { style: 'background:#fff;color:#0f172a;border-radius:12px;padding:24px;width:min(360px,90vw);box-shadow:0 20px 40px rgba(0,0,0,.25);text-align:center' });
      const title = el('h2', { style: 'margin:0 0 8px;font-size:18px' }, 'Tambari test checkout');
      const note = el('p', { style: 'margin:0 0 16px;font-size:14px;color:#475569' }, 'Tambari test checkout \\u2014 no real card is charged');
      const amount = el('p', { 'data-testid': 'fake-paystack-amount', style: 'margin:0 0 16px;font-size:22px;font-weight:600' }, '');
      const pay = el('button', { type: 'button', 'data-testid': 'fake-paystack-pay', style: 'display:block;width:100%;padding:10px;margin-bottom:8px;border:0;border-radius:8px;background:#0ba4db;color:#fff;font-size:16px;cursor:pointer' }, 'Pay');
      const close = el('button', { type: 'button', 'data-testid': 'fake-paystack-close', style: 'display:block;width:100%;padding:10px;border:1px solid #cbd5e1;border-radius:8px;background:#fff;color:#0f172a;font-size:14px;cursor:pointer' }, 'Close');
      box.append(title, note, amount, pay, close);
      overlay.append(box);
      const remove = () => overlay.remove();
      fetch(BASE + '/__popup/' + encodeURIComponent(accessCode))
        .then((r) => r.json())
        .then((json) => {
          if (!json.status) throw new Error(json.message || 'Unknown transaction');
          amount.textContent = naira(json.data.amount);
          pay.textContent = 'Pay ' + naira(json.data.amount);
          document.body.append(overlay);
          pay.focus();
          if (cb.onLoad) cb.onLoad({ id: accessCode });
        })
        .catch((e) => { if (cb.onError) cb.onError({ message: e.message }); });
      pay.addEventListener('click', () => {
        pay.disabled = true;
        fetch(BASE + '/__popup/' + encodeURIComponent(accessCode) + '/pay', { method: 'POST' })
          .then((r) => r.json())
          .then((json) => {
            remove();
            if (!json.status) throw new Error(json.message || 'Payment failed');
            if (cb.onSuccess) cb.onSuccess({ reference: json.data.reference, status: 'success', message: 'Approval', trans: '', transaction: '' });
          })
          .catch((e) => { remove(); if (cb.onError) cb.onError({ message: e.message }); });
      });
      close.addEventListener('click', () => { remove(); if (cb.onCancel) cb.onCancel(); });
      return { id: accessCode };
    }
  }
  window.PaystackPop = PaystackPop;
})();
`;
}
