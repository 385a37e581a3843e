import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { type SenderConnectionSettings, smtpConnectionSetup } from './sender-transport';
import { classifySmtpError, SMTP_ERROR_MESSAGES } from './smtp-errors';
import { createSmtpPool, type SmtpPool } from './smtp-pool';

/*
 * The dispatcher's own pool of SMTPConnections against a real smtp-server on loopback (port 0): it must
 * behave as nodemailer's pooled transport did with our options.
 */

interface TestServer {
  port: number;
  /** Sessions opened, in order (smtp-server's session ids). */
  sessions: string[];
  /** Sessions that ended. */
  closed: number;
  received: { session: string; to: string[]; raw: string }[];
  sockets: Set<Socket>;
}

const servers: SMTPServer[] = [];
const pools: SmtpPool[] = [];
afterAll(async () => {
  for (const pool of pools) pool.close();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function startServer(options: Partial<SMTPServerOptions> = {}): Promise<TestServer> {
  const state: TestServer = { port: 0, sessions: [], closed: 0, received: [], sockets: new Set() };
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 200,
    onConnect(session, callback) {
      state.sessions.push(session.id);
      callback();
    },
    onClose() {
      state.closed++;
    },
    onAuth(auth, _session, callback) {
      if (auth.password === 'right-password') return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (address.address === 'nobody@example.com') {
        return callback(Object.assign(new Error('5.1.1 User unknown'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        state.received.push({
          session: session.id,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
        });
        callback();
      });
    },
    ...options,
  });
  server.on('error', () => {});
  server.server.on('connection', (socket: Socket) => {
    state.sockets.add(socket);
    socket.on('close', () => state.sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.port = (server.server.address() as AddressInfo).port;
  return state;
}

function settings(port: number, password = 'right-password'): SenderConnectionSettings {
  return {
    smtp: { host: '127.0.0.1', port, security: 'none', user: 'ada', password, tlsCert: null },
    imap: null,
    isDevMailbox: false,
    fromEmail: 'ada@kanofoods.ng',
  };
}

async function pool(
  port: number,
  options: { maxConnections?: number; idleTimeoutMs?: number; password?: string } = {},
): Promise<SmtpPool> {
  const setup = await smtpConnectionSetup(settings(port, options.password), { network: 'loopback' });
  const created = createSmtpPool(setup, {
    maxConnections: options.maxConnections ?? 2,
    idleTimeoutMs: options.idleTimeoutMs,
  });
  pools.push(created);
  return created;
}

const message = (n: number | string) =>
  Buffer.from(
    `From: ada@kanofoods.ng\r\nTo: bola@example.com\r\nSubject: Hi\r\nMessage-ID: <m${n}@kanofoods.ng>\r\n\r\nHello ${n}\r\n.leading dot\r\n`,
  );
const envelope = (to = 'bola@example.com') => ({ from: 'ada@kanofoods.ng', to: [to] });

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the dispatcher SMTP pool', () => {
  it('sends the exact bytes and answers the server reply', async () => {
    const server = await startServer();
    const p = await pool(server.port);
    const info = await p.send(envelope(), message(1));
    expect(info.response).toMatch(/^250 /);
    expect(info.accepted).toEqual(['bola@example.com']);
    expect(server.received.map((m) => m.raw)).toEqual([message(1).toString()]);
  });

  it('reuses its connections and never opens more than maxConnections per account', async () => {
    const server = await startServer();
    const [a, b] = [await pool(server.port), await pool(server.port)];
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => a.send(envelope(), message(`a${i}`))),
      ...Array.from({ length: 12 }, (_, i) => b.send(envelope(), message(`b${i}`))),
    ]);
    await Promise.all(Array.from({ length: 6 }, (_, i) => a.send(envelope(), message(`a-again${i}`))));
    expect(server.received).toHaveLength(30);
    expect(server.sessions).toHaveLength(4);
  });

  it('sends at most 100 messages per connection: the 101st goes on a new one', async () => {
    const server = await startServer();
    const p = await pool(server.port, { maxConnections: 1 });
    await Promise.all(Array.from({ length: 101 }, (_, i) => p.send(envelope(), message(i))));
    expect(server.sessions).toHaveLength(2);
    const [first, second] = server.sessions;
    expect(server.received.slice(0, 100).every((m) => m.session === first)).toBe(true);
    expect(server.received[100]!.session).toBe(second);
  });

  it('fails a refused recipient with its reply code and sends the next message on the same connection', async () => {
    const server = await startServer();
    const p = await pool(server.port, { maxConnections: 1 });
    const outcomes = await Promise.all(
      ['bola@example.com', 'nobody@example.com', 'chidi@example.com'].map((to, i) =>
        p.send(envelope(to), message(i)).then(
          (info) => info.response.slice(0, 3),
          (error: unknown) => error,
        ),
      ),
    );
    expect(outcomes[0]).toBe('250');
    expect(outcomes[2]).toBe('250');
    expect(outcomes[1]).toMatchObject({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    expect(classifySmtpError(outcomes[1])).toEqual({
      kind: 'permanent',
      responseCode: 550,
      safeMessage: SMTP_ERROR_MESSAGES.recipient,
    });
    expect(server.sessions).toHaveLength(1);
    expect(server.received.map((m) => m.to)).toEqual([['bola@example.com'], ['chidi@example.com']]);
  });

  it('survives the server closing an idle connection (421 or a reset) and reconnects for the next message', async () => {
    // smtp-server's own idle timeout: "421 Timeout - closing connection", then it closes.
    const server = await startServer({ socketTimeout: 200 });
    const p = await pool(server.port, { maxConnections: 1 });
    await p.send(envelope(), message(1));
    await until(() => server.closed === 1);
    await p.send(envelope(), message(2));
    expect(server.sessions).toHaveLength(2);
    // A reset on the idle connection: an 'error' nobody waits for, which must not end the process.
    for (const socket of server.sockets) socket.resetAndDestroy();
    await until(() => server.closed === 2);
    await new Promise((r) => setTimeout(r, 50));
    await p.send(envelope(), message(3));
    expect(server.sessions).toHaveLength(3);
    expect(server.received).toHaveLength(3);
  });

  it('closes a connection left idle (QUIT), and opens a new one when needed', async () => {
    const server = await startServer();
    const p = await pool(server.port, { maxConnections: 1, idleTimeoutMs: 100 });
    await p.send(envelope(), message(1));
    await until(() => server.closed === 1);
    await p.send(envelope(), message(2));
    expect(server.sessions).toHaveLength(2);
  });

  it('classifies a refused login and a refused connection as the nodemailer transport did', async () => {
    const server = await startServer();
    const wrong = await pool(server.port, { password: 'wrong-password' });
    const refused = await wrong.send(envelope(), message(1)).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'EAUTH', responseCode: 535 });
    expect(classifySmtpError(refused)).toEqual({
      kind: 'auth',
      responseCode: 535,
      safeMessage: SMTP_ERROR_MESSAGES.auth,
    });
    const closedPort = await startServer();
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const nothing = await pool(closedPort.port);
    const unreachable = await nothing.send(envelope(), message(2)).catch((e: unknown) => e);
    expect(classifySmtpError(unreachable)).toEqual({
      kind: 'connection',
      responseCode: null,
      safeMessage: SMTP_ERROR_MESSAGES.unreachable,
    });
    expect(server.received).toHaveLength(0);
  });

  it('on close, finishes the message on the wire, fails those still waiting, and refuses new ones', async () => {
    const server = await startServer();
    const p = await pool(server.port, { maxConnections: 1 });
    const sends = [1, 2, 3].map((n) =>
      p.send(envelope(), message(n)).then(
        () => 'sent',
        (e: Error) => e.message,
      ),
    );
    await new Promise((r) => setImmediate(r));
    p.close();
    expect(await Promise.all(sends)).toEqual([
      'sent',
      'Connection pool was closed',
      'Connection pool was closed',
    ]);
    await expect(p.send(envelope(), message(4))).rejects.toMatchObject({ code: 'ECONNECTION' });
    await until(() => server.closed === 1);
  });
});
