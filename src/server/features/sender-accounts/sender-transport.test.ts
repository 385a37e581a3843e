import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { encryptSecret } from '@server/lib/crypto';
import { AppError } from '@server/lib/errors';
import type { HostLookup } from '@server/lib/network-guard';
import hoodiecrow from 'hoodiecrow-imap';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import {
  openSmtpTransport,
  type SenderAccountRow,
  type SenderConnectionSettings,
  testSenderConnection,
} from './sender-transport';
import { classifySmtpError, SMTP_ERROR_MESSAGES } from './smtp-errors';
import { openSmtpPool } from './smtp-pool';
import { fingerprintOf } from './tls-trust';

/*
 * Real connections to smtp-server (and hoodiecrow for IMAP) on loopback, each on an ephemeral port of its
 * own random 127.x.y.z address (the guard takes any port; it judges the address).
 */

const SECRET_BANNER = 'SECRET-BANNER postfix-internal.corp build 7';
const SECRET_REPLY = 'SECRET-REPLY the vault is in rack 12';
const key = Buffer.alloc(32, 7);
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function randomLoopback(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

async function listenOnLoopback(server: {
  listen(port: number, host: string, cb: () => void): unknown;
  once?: unknown;
}): Promise<{ host: string; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const host = randomLoopback();
    const s = (server as { server?: Server }).server ?? (server as unknown as Server);
    try {
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        server.listen(0, host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      return { host, port: (s.address() as AddressInfo).port };
    } catch (error) {
      if (attempt > 5) throw error;
    }
  }
}

/** A loopback address and port where nothing listens (a port the system gave us and took back). */
async function closedPort(): Promise<{ host: string; port: number }> {
  const probe = createServer();
  const address = await listenOnLoopback(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return address;
}

interface TestSmtp {
  host: string;
  port: number;
  connections: number;
  received: { from: string; to: string[]; raw: string; ehlo: string }[];
}

async function startSmtp(options: Partial<SMTPServerOptions> = {}): Promise<TestSmtp> {
  const state: TestSmtp = { host: '', port: 0, connections: 0, received: [] };
  const server = new SMTPServer({
    banner: SECRET_BANNER,
    logger: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, callback) {
      state.connections++;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === 'ada@kanofoods.ng' && auth.password === 'right-password') {
        return callback(null, { user: auth.username });
      }
      callback(Object.assign(new Error(SECRET_REPLY), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        state.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
          ehlo: session.hostNameAppearsAs,
        });
        callback();
      });
    },
    ...options,
  });
  server.on('error', () => {});
  Object.assign(state, await listenOnLoopback(server));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return state;
}

function settings(
  server: { host: string; port: number },
  overrides: Partial<SenderConnectionSettings['smtp']> = {},
): SenderConnectionSettings {
  return {
    smtp: {
      host: server.host,
      port: server.port,
      security: 'none',
      user: 'ada@kanofoods.ng',
      password: 'right-password',
      tlsCert: null,
      ...overrides,
    },
    imap: null,
    isDevMailbox: false,
    fromEmail: 'ada@kanofoods.ng',
  };
}

function expectNothingLeaked(message: string) {
  expect(message).not.toMatch(/SECRET|postfix|vault|Hoodiecrow|rumble/i);
}

describe('testSenderConnection (SMTP)', () => {
  it('connects and signs in with the right password', async () => {
    const smtp = await startSmtp();
    const result = await testSenderConnection({ settings: settings(smtp), network: 'loopback' });
    expect(result).toEqual({ smtp: { ok: true, message: expect.stringMatching(/signed in/i) }, imap: null });
    expect(smtp.connections).toBe(1);
  });

  it('answers the fixed app-password advice for a refused password, never the server words', async () => {
    const smtp = await startSmtp();
    const result = await testSenderConnection({
      settings: settings(smtp, { password: 'wrong-password' }),
      network: 'loopback',
    });
    expect(result.smtp).toEqual({ ok: false, message: SMTP_ERROR_MESSAGES.auth });
    expect(result.smtp.message).toContain('app password');
    expectNothingLeaked(result.smtp.message);
  });

  it('says it could not connect when nothing listens on the port', async () => {
    const result = await testSenderConnection({
      settings: settings(await closedPort()),
      network: 'loopback',
    });
    expect(result.smtp).toEqual({ ok: false, message: SMTP_ERROR_MESSAGES.unreachable });
    expect(result.smtp.message).toMatch(/could not connect to a mail server/i);
  });

  it('answers one message for a closed port, a silent one and one that is not a mail server', async () => {
    // Any port may be tested now: what answered on it (nothing, SSH, a web server) must not show.
    const sockets: Socket[] = [];
    const ssh = createServer((socket) => {
      sockets.push(socket);
      socket.write('SSH-2.0-OpenSSH_9.6 SECRET-BANNER\r\n');
    });
    const web = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nServer: SECRET-nginx\r\n\r\n'));
    });
    const silent = createServer((socket) => sockets.push(socket));
    const servers = [ssh, web, silent];
    const addresses = [];
    for (const server of servers) addresses.push(await listenOnLoopback(server));
    closers.push(async () => {
      for (const socket of sockets) socket.destroy();
      for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const messages = new Set<string>();
    for (const target of [await closedPort(), ...addresses]) {
      for (const security of ['none', 'tls'] as const) {
        const result = await testSenderConnection({
          settings: settings(target, { security }),
          network: 'loopback',
          timeoutMs: 500,
        });
        expect(result.smtp.ok).toBe(false);
        expectNothingLeaked(result.smtp.message);
        messages.add(result.smtp.message);
      }
    }
    expect([...messages]).toEqual([SMTP_ERROR_MESSAGES.unreachable]);
  });

  it('never connects to an address the network setting refuses', async () => {
    const smtp = await startSmtp();
    const result = await testSenderConnection({ settings: settings(smtp), network: 'public' });
    expect(result.smtp).toEqual({ ok: false, message: 'This mail server address is not allowed' });
    expect(smtp.connections).toBe(0);
  });

  it('names an expired certificate as expired, not as "not valid for this host"', async () => {
    // smtp-server's built-in certificate expired long ago; the old message blamed the host name.
    const smtp = await startSmtp({ secure: true });
    const result = await testSenderConnection({
      settings: settings(smtp, { security: 'tls' }),
      network: 'loopback',
    });
    expect(result.smtp).toMatchObject({ ok: false, message: SMTP_ERROR_MESSAGES.certExpired });
  });

  it('answers the unreachable message, with its security hint, when SSL/TLS is chosen for a plain port', async () => {
    const smtp = await startSmtp();
    const result = await testSenderConnection({
      settings: settings(smtp, { security: 'tls' }),
      network: 'loopback',
    });
    expect(result.smtp).toEqual({ ok: false, message: SMTP_ERROR_MESSAGES.unreachable });
    expect(result.smtp.message).toMatch(/security setting/);
  });

  it('refuses to go on without encryption when STARTTLS is chosen and the server offers none', async () => {
    const smtp = await startSmtp();
    const result = await testSenderConnection({
      settings: settings(smtp, { security: 'starttls' }),
      network: 'loopback',
    });
    expect(result.smtp).toEqual({ ok: false, message: SMTP_ERROR_MESSAGES.tls });
  });

  it('gives up on a server that never greets', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    const address = await listenOnLoopback(silent);
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const result = await testSenderConnection({
      settings: settings(address),
      network: 'loopback',
      timeoutMs: 300,
    });
    expect(result.smtp).toEqual({ ok: false, message: SMTP_ERROR_MESSAGES.unreachable });
  });
});

function accountRow(overrides: Partial<SenderAccountRow>): SenderAccountRow {
  const at = new Date();
  return {
    id: '00000000-0000-4000-8000-000000000001',
    userId: 'user-1',
    label: 'Sales',
    fromName: 'Ada',
    fromEmail: 'ada@kanofoods.ng',
    replyTo: null,
    postalAddress: '12 Marina Road, Lagos',
    smtpHost: 'mail.kanofoods.ng',
    smtpPort: 2525,
    smtpSecurity: 'none',
    smtpUser: 'ada@kanofoods.ng',
    smtpPasswordEnc: encryptSecret('right-password', key),
    imapEnabled: false,
    imapHost: null,
    imapPort: null,
    imapSecurity: null,
    imapUser: null,
    imapPasswordEnc: null,
    keyVersion: 1,
    dailyCap: 50,
    warmupEnabled: false,
    warmupStart: 10,
    warmupIncrement: 5,
    warmupStartedOn: null,
    timeZone: 'Africa/Lagos',
    dkimSelector: null,
    status: 'active',
    statusReason: null,
    statusChangedAt: null,
    authFailures: 0,
    sendsToday: 0,
    sendsDay: null,
    lastUsedAt: null,
    cooldownUntil: null,
    imapUidValidity: null,
    imapLastUid: null,
    imapCheckedAt: null,
    imapError: null,
    domainCheck: null,
    domainCheckedAt: null,
    isDevMailbox: false,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  } as SenderAccountRow;
}

describe('openSmtpTransport', () => {
  it('sends through the address the guard resolved, with the stored password unsealed', async () => {
    const smtp = await startSmtp();
    const lookedUp: string[] = [];
    const lookup: HostLookup = async (host) => {
      lookedUp.push(host);
      return [{ address: smtp.host, family: 4 }];
    };
    const transport = await openSmtpTransport({
      account: accountRow({ smtpPort: smtp.port }),
      encryptionKey: key,
      network: 'loopback',
      lookup,
    });
    try {
      await transport.sendMail({
        from: 'ada@kanofoods.ng',
        to: 'bola@example.com',
        subject: 'Hi',
        text: 'Hello',
      });
    } finally {
      transport.close();
    }
    expect(lookedUp).toEqual(['mail.kanofoods.ng']);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['bola@example.com']);
  });

  it('greets with the sender domain, or the configured host name, never [127.0.0.1]', async () => {
    const smtp = await startSmtp();
    const lookup: HostLookup = async () => [{ address: smtp.host, family: 4 }];
    const account = accountRow({ smtpPort: smtp.port, fromEmail: 'ada@Kanofoods.NG' });
    for (const ehloName of [undefined, 'mail.tambari.example']) {
      const transport = await openSmtpTransport({
        account,
        encryptionKey: key,
        network: 'loopback',
        lookup,
        ehloName,
      });
      try {
        await transport.sendMail({
          from: 'ada@kanofoods.ng',
          to: 'bola@example.com',
          subject: 'Hi',
          text: 'Hello',
        });
      } finally {
        transport.close();
      }
    }
    expect(smtp.received.map((m) => m.ehlo)).toEqual(['kanofoods.ng', 'mail.tambari.example']);
  });

  it('refuses to open a transport to a refused address', async () => {
    const lookup: HostLookup = async () => [{ address: '169.254.169.254', family: 4 }];
    await expect(
      openSmtpTransport({ account: accountRow({}), encryptionKey: key, network: 'private', lookup }),
    ).rejects.toThrow('This mail server address is not allowed');
  });

  it('sends a dev-mailbox account to the running mailbox port, whatever port is stored', async () => {
    // Like the real development mailbox: no TLS, any login accepted.
    const dev = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username });
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          received++;
          callback();
        });
      },
    });
    let received = 0;
    await new Promise<void>((resolve) => dev.listen(0, '127.0.0.1', () => resolve()));
    closers.push(() => new Promise<void>((resolve) => dev.close(() => resolve())));
    const port = (dev.server.address() as { port: number }).port;
    const account = accountRow({ isDevMailbox: true, smtpHost: '127.0.0.1', smtpPort: 2525 });
    // The dev mailbox is ours: even the 'public' setting reaches it.
    const transport = await openSmtpTransport({
      account,
      encryptionKey: key,
      network: 'public',
      devMailboxPort: port,
    });
    await transport.sendMail({
      from: 'demo@tambari.test',
      to: 'bola@example.com',
      subject: 'Hi',
      text: 'Hello',
    });
    transport.close();
    expect(received).toBe(1);

    const error = await openSmtpTransport({
      account,
      encryptionKey: key,
      network: 'public',
      devMailboxPort: null,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe('The Tambari test mailbox is not running on this server');
  });
});

describe('testSenderConnection (IMAP)', () => {
  async function startImap() {
    const server = hoodiecrow({ plugins: [], users: { 'ada@kanofoods.ng': { password: 'imap-password' } } });
    const address = await listenOnLoopback(server);
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return address;
  }

  it('signs in and out of the IMAP server, and says so when the password is refused', async () => {
    const smtp = await startSmtp();
    const imapServer = await startImap();
    const base = settings(smtp);
    const imap = {
      host: imapServer.host,
      port: imapServer.port,
      security: 'none' as const,
      user: 'ada@kanofoods.ng',
      password: 'imap-password',
      tlsCert: null,
    };
    const good = await testSenderConnection({ settings: { ...base, imap }, network: 'loopback' });
    expect(good.imap).toEqual({ ok: true, message: expect.stringMatching(/signed in/i) });

    const bad = await testSenderConnection({
      settings: { ...base, imap: { ...imap, password: 'nope' } },
      network: 'loopback',
    });
    expect(bad.smtp.ok).toBe(true);
    expect(bad.imap).toEqual({ ok: false, message: SMTP_ERROR_MESSAGES.auth });
    expectNothingLeaked(bad.imap!.message);

    const closed = await testSenderConnection({
      settings: { ...base, imap: { ...imap, ...(await closedPort()) } },
      network: 'loopback',
    });
    expect(closed.imap).toEqual({ ok: false, message: SMTP_ERROR_MESSAGES.unreachable });
  });
});

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tests/fixtures/tls/${name}`, import.meta.url), 'utf8');
const CERTS = {
  selfSigned: { key: fixture('self-signed.key'), cert: fixture('self-signed.crt') },
  renewed: { key: fixture('self-signed-renewed.key'), cert: fixture('self-signed-renewed.crt') },
  privateCa: { key: fixture('private-ca-leaf.key'), cert: fixture('private-ca-leaf.crt') },
};
const MAIL_HOST = 'mail.kanofoods.test';

describe('certificates the owner trusts (pinning)', () => {
  async function tlsSmtp(credentials: { key: string; cert: string }, mode: 'tls' | 'starttls') {
    return startSmtp({
      ...credentials,
      secure: mode === 'tls',
      disabledCommands: [],
    });
  }
  const lookupTo =
    (address: string): HostLookup =>
    async () => [{ address, family: 4 }];
  const named = (smtp: TestSmtp) => ({ host: MAIL_HOST, port: smtp.port });

  it.each(['tls', 'starttls'] as const)(
    'says "self-signed" and shows the certificate to trust, then connects once it is pinned (%s)',
    async (mode) => {
      const smtp = await tlsSmtp(CERTS.selfSigned, mode);
      const base = { network: 'loopback' as const, lookup: lookupTo(smtp.host) };
      const untrusted = await testSenderConnection({
        ...base,
        settings: settings(named(smtp), { security: mode }),
      });
      expect(untrusted.smtp).toEqual({
        ok: false,
        message: SMTP_ERROR_MESSAGES.certSelfSigned,
        certificate: {
          fingerprint: fingerprintOf(CERTS.selfSigned.cert),
          subject: 'O=Kano Foods Test, CN=mail.kanofoods.test',
          issuer: 'O=Kano Foods Test, CN=mail.kanofoods.test',
          validFrom: expect.any(String),
          validTo: expect.stringMatching(/^21\d\d-/),
          problem: 'self_signed',
        },
      });

      const pinned = await testSenderConnection({
        ...base,
        settings: settings(named(smtp), { security: mode, tlsCert: CERTS.selfSigned.cert }),
      });
      expect(pinned.smtp).toEqual({ ok: true, message: expect.stringMatching(/signed in/i) });
    },
  );

  it('refuses a changed certificate on a pinned account with "certificate changed", and shows the new one', async () => {
    const smtp = await tlsSmtp(CERTS.renewed, 'tls');
    const result = await testSenderConnection({
      network: 'loopback',
      lookup: lookupTo(smtp.host),
      settings: settings(named(smtp), { security: 'tls', tlsCert: CERTS.selfSigned.cert }),
    });
    expect(result.smtp).toMatchObject({
      ok: false,
      message: SMTP_ERROR_MESSAGES.certChanged,
      certificate: { fingerprint: fingerprintOf(CERTS.renewed.cert), problem: 'changed' },
    });
    expect(smtp.received).toHaveLength(0);
  });

  it('says "unknown authority" for a private CA, and trusts the pinned leaf', async () => {
    const smtp = await tlsSmtp(CERTS.privateCa, 'tls');
    const base = { network: 'loopback' as const, lookup: lookupTo(smtp.host) };
    const untrusted = await testSenderConnection({
      ...base,
      settings: settings(named(smtp), { security: 'tls' }),
    });
    expect(untrusted.smtp).toMatchObject({
      ok: false,
      message: SMTP_ERROR_MESSAGES.certUnknownCa,
      certificate: { issuer: 'O=Kano Foods Test, CN=Kano Foods Private CA', problem: 'unknown_ca' },
    });
    const pinned = await testSenderConnection({
      ...base,
      settings: settings(named(smtp), { security: 'tls', tlsCert: CERTS.privateCa.cert }),
    });
    expect(pinned.smtp.ok).toBe(true);
  });

  it('sends through a pinned account, and refuses to send once the certificate changed', async () => {
    const good = await tlsSmtp(CERTS.selfSigned, 'starttls');
    const changed = await tlsSmtp(CERTS.renewed, 'starttls');
    const mail = { from: 'ada@kanofoods.ng', to: 'bola@example.com', subject: 'Hi', text: 'Hello' };
    for (const [server, works] of [
      [good, true],
      [changed, false],
    ] as const) {
      const transport = await openSmtpTransport({
        account: accountRow({
          smtpHost: MAIL_HOST,
          smtpPort: server.port,
          smtpSecurity: 'starttls',
          smtpTlsCert: CERTS.selfSigned.cert,
        }),
        encryptionKey: key,
        network: 'loopback',
        lookup: lookupTo(server.host),
      });
      try {
        const outcome = await transport.sendMail(mail).then(
          () => 'sent',
          (error: unknown) => classifySmtpError(error).safeMessage,
        );
        expect(outcome).toBe(works ? 'sent' : SMTP_ERROR_MESSAGES.certChanged);
      } finally {
        transport.close();
      }
    }
    expect(good.received).toHaveLength(1);
    expect(changed.received).toHaveLength(0);
  });

  it("the dispatcher's pool sends through a pinned account too, and reports a changed certificate as changed", async () => {
    const good = await tlsSmtp(CERTS.selfSigned, 'starttls');
    const changed = await tlsSmtp(CERTS.renewed, 'tls');
    const raw = 'From: ada@kanofoods.ng\r\nTo: bola@example.com\r\nSubject: Hi\r\n\r\nHello\r\n';
    for (const [server, security, works] of [
      [good, 'starttls', true],
      [changed, 'tls', false],
    ] as const) {
      const pool = await openSmtpPool({
        account: accountRow({
          smtpHost: MAIL_HOST,
          smtpPort: server.port,
          smtpSecurity: security,
          smtpTlsCert: CERTS.selfSigned.cert,
        }),
        encryptionKey: key,
        network: 'loopback',
        lookup: lookupTo(server.host),
        maxConnections: 2,
      });
      try {
        const outcome = await pool.send({ from: 'ada@kanofoods.ng', to: ['bola@example.com'] }, raw).then(
          () => 'sent',
          (error: unknown) => classifySmtpError(error).safeMessage,
        );
        expect(outcome).toBe(works ? 'sent' : SMTP_ERROR_MESSAGES.certChanged);
      } finally {
        pool.close();
      }
    }
    expect(good.received).toHaveLength(1);
    expect(changed.received).toHaveLength(0);
  });

  it("shows and pins an IMAP server's self-signed certificate too", async () => {
    const server = hoodiecrow({
      plugins: [],
      secureConnection: true,
      credentials: CERTS.selfSigned,
      users: { 'ada@kanofoods.ng': { password: 'imap-password' } },
    });
    const address = await listenOnLoopback(server);
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const smtp = await startSmtp();
    const imap = {
      host: MAIL_HOST,
      port: address.port,
      security: 'tls' as const,
      user: 'ada@kanofoods.ng',
      password: 'imap-password',
      tlsCert: null,
    };
    const lookup: HostLookup = async (host) => [
      { address: host === MAIL_HOST ? address.host : smtp.host, family: 4 },
    ];
    const untrusted = await testSenderConnection({
      settings: { ...settings(smtp), imap },
      network: 'loopback',
      lookup,
    });
    expect(untrusted.imap).toMatchObject({
      ok: false,
      message: SMTP_ERROR_MESSAGES.certSelfSigned,
      certificate: { fingerprint: fingerprintOf(CERTS.selfSigned.cert), problem: 'self_signed' },
    });
    const pinned = await testSenderConnection({
      settings: { ...settings(smtp), imap: { ...imap, tlsCert: CERTS.selfSigned.cert } },
      network: 'loopback',
      lookup,
    });
    expect(pinned.imap).toEqual({ ok: true, message: expect.stringMatching(/signed in/i) });
    const changed = await testSenderConnection({
      settings: { ...settings(smtp), imap: { ...imap, tlsCert: CERTS.renewed.cert } },
      network: 'loopback',
      lookup,
    });
    expect(changed.imap).toMatchObject({ ok: false, message: SMTP_ERROR_MESSAGES.certChanged });
  });
});
