import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePaystack, startFakePaystack } from './dev-paystack';
import { createPaystackClient, isValidPaystackSignature, PaystackError } from './paystack.client';

/** The fake is part of the product (test mode of `npm start`), so it is tested like it. */
describe('fake Paystack', () => {
  let fake: FakePaystack;
  let webhooks: { body: string; signature: string | undefined }[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    webhooks = [];
    const receiver = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      webhooks.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-paystack-signature'] as string | undefined,
      });
      res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    fake = await startFakePaystack({ webhookUrl: `http://127.0.0.1:${port}/hook` });
    close = async () => {
      await fake.close();
      await new Promise((resolve) => receiver.close(resolve));
    };
  });
  afterAll(() => close());

  const client = () => createPaystackClient({ secretKey: fake.secretKey, baseUrl: fake.url });

  it('initializes, verifies, settles and sends a signed charge.success', async () => {
    const reference = `ref_${Date.now()}`;
    const init = await client().initializeTransaction({
      email: 'ada@tambari.test',
      amount: 1_500_000,
      currency: 'NGN',
      reference,
      metadata: { planId: 'starter' },
    });
    expect(init.reference).toBe(reference);
    expect(init.access_code).toMatch(/^ac_/);
    expect((await client().verifyTransaction(reference)).status).toBe('pending');

    const settle = await fetch(`${fake.url}/__control/complete/${reference}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'success' }),
    });
    expect(settle.status).toBe(200);
    const verified = await client().verifyTransaction(reference);
    expect(verified).toMatchObject({ status: 'success', amount: 1_500_000, currency: 'NGN', reference });
    expect(verified.authorization).toMatchObject({ reusable: true, last4: '4081' });

    const deadline = Date.now() + 3000;
    while (webhooks.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const [hook] = webhooks;
    expect(JSON.parse(hook!.body)).toMatchObject({ event: 'charge.success', data: { reference } });
    expect(isValidPaystackSignature(Buffer.from(hook!.body), hook!.signature, fake.secretKey)).toBe(true);
    expect(hook!.signature).toBe(createHmac('sha512', fake.secretKey).update(hook!.body).digest('hex'));
  });

  it('charges a saved authorization and declines on request', async () => {
    const reference = `ref_auth_${Date.now()}`;
    await client().initializeTransaction({
      email: 'b@tambari.test',
      amount: 10_000,
      currency: 'NGN',
      reference,
    });
    fake.complete(reference, 'success');
    const code = (await client().verifyTransaction(reference)).authorization!.authorization_code;
    const ok = await client().chargeAuthorization({
      email: 'b@tambari.test',
      amount: 10_000,
      currency: 'NGN',
      authorizationCode: code,
      reference: `${reference}_r1`,
    });
    expect(ok.status).toBe('success');
    await fetch(`${fake.url}/__control/fail-next-charge`, { method: 'POST' });
    const declined = await client().chargeAuthorization({
      email: 'b@tambari.test',
      amount: 10_000,
      currency: 'NGN',
      authorizationCode: code,
      reference: `${reference}_r2`,
    });
    expect(declined).toMatchObject({ status: 'failed', gateway_response: 'Insufficient Funds' });
  });

  it('refuses a wrong key and an unknown reference like Paystack', async () => {
    const wrong = createPaystackClient({ secretKey: 'sk_test_wrong', baseUrl: fake.url });
    await expect(wrong.verifyTransaction('x')).rejects.toBeInstanceOf(PaystackError);
    await expect(client().verifyTransaction('nope')).rejects.toThrow('Transaction reference not found');
  });

  it('serves a hosted checkout page at authorization_url that returns to the callback URL', async () => {
    const reference = `ref_page_${Date.now()}`;
    const init = await client().initializeTransaction({
      email: 'c@tambari.test',
      amount: 10_000,
      currency: 'NGN',
      reference,
      callbackUrl: 'http://localhost:3000/payment-success',
    });
    const page = await fetch(init.authorization_url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="/inline.js"></script>');
    expect(html).toContain(init.access_code);
    expect(html).toContain(
      `http://localhost:3000/payment-success?trxref=${reference}&reference=${reference}`,
    );
  });

  it('serves the inline script defining window.PaystackPop', async () => {
    const response = await fetch(fake.inlineScriptUrl);
    expect(response.headers.get('content-type')).toContain('application/javascript');
    const script = await response.text();
    expect(script).toContain('window.PaystackPop = PaystackPop');
    expect(script).toContain('resumeTransaction');
    expect(script).toContain('fake-paystack-pay');
    expect(script).toContain('fake-paystack-close');
    expect(script).toContain('no real card is charged');
  });
});
