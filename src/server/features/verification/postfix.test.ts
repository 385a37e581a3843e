import { describe, expect, it } from 'vitest';
import { type MailHost, verifyAddresses } from './verify-addresses';

/*
 * The verifier against a real Postfix, where the environment has one: VERIFY_POSTFIX=host:port names a
 * Postfix that receives mail for kilimo.test (one mailbox, ada) and catchall.test (every address), as
 * scripts/start-test-postfix.sh sets it up (CI runs it when Postfix installs). The loopback fakes in
 * verification.test.ts cover every answer; this proves the conversation works with a real MTA's replies.
 */
const server = process.env.VERIFY_POSTFIX;

describe.skipIf(!server)('the verifier against a real Postfix (skipped unless VERIFY_POSTFIX is set)', () => {
  const [host, port] = (server ?? ':').split(':');
  const postfix: MailHost = { host: host!, port: Number(port) };
  const verifier = {
    mailHostsOf: async (domain: string) =>
      domain === 'kilimo.test' || domain === 'catchall.test' ? [postfix] : [],
    heloName: 'verify.tambari.test',
    mailFrom: 'verify@tambari.test',
    timeoutMs: 10_000,
  };

  it('finds the mailbox, rejects the unknown one with its 550, and sees through the catch-all', async () => {
    const verdicts = await verifyAddresses(
      ['ada@kilimo.test', 'wanjiru.unknown@kilimo.test', 'anyone@catchall.test', 'ada@nomail.test'],
      verifier,
    );
    const byEmail = new Map(verdicts.map((v) => [v.email, v]));
    expect(byEmail.get('ada@kilimo.test')).toMatchObject({
      status: 'valid',
      reason: 'accepted',
      smtpCode: 250,
    });
    expect(byEmail.get('wanjiru.unknown@kilimo.test')).toMatchObject({
      status: 'invalid',
      reason: 'rejected',
      smtpCode: 550,
    });
    expect(byEmail.get('anyone@catchall.test')).toMatchObject({ status: 'risky', reason: 'catch_all' });
    expect(byEmail.get('ada@nomail.test')).toMatchObject({ status: 'invalid' });
  });
});
