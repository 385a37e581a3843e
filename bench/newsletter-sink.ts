// The SMTP sink of bench/newsletter-million, in a process of its own (forked with `--import tsx`): its
// event loop would otherwise sit between the benchmark's page polls and their answers, and a million
// messages of parsing would show as page latency. It counts what it accepts by Message-ID and by
// recipient (`reader<i>@example.com`, i from 1 to the expected count) and checks every newsletter message
// as it arrives: List-Unsubscribe (and its one-click Post header) carries the message's token, the HTML
// part carries the open pixel and the ten tracked links under that same token, and no untracked link to the
// newsletter's site is left. The parent asks for the figures over IPC.
//
// Modes: `newsletter` checks and counts; `bare` (the nodemailer pools' baseline) does the same parsing and
// checking of every message, so the baseline's sink spends what the newsletter's did and the two rates
// compare senders, not the sink's own work; `light` only counts (the yardstick before 2026-11-28, still
// printed). `cpuUs` is the sink's own CPU time since the last reset.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkStats {
  accepted: number;
  uniqueRecipients: number;
  duplicatesById: number;
  duplicatesByRecipient: number;
  unknownRecipients: number;
  missingUnsubscribe: number;
  brokenTracking: number;
  firstAt: number | null;
  lastAt: number | null;
  /** One accepted message as it arrived, for a look. */
  sample: string | null;
  /** This process's CPU time (user + system) since the last reset, in µs. */
  cpuUs: number;
  /** The first few problems seen, to say what was wrong. */
  problems: string[];
  /** How the senders talked: connections opened, commands by name, socket reads and bytes read. */
  wire: WireStats;
}

export interface WireStats {
  connections: number;
  commands: Record<string, number>;
  reads: number;
  bytes: number;
}

export type SinkMode = 'newsletter' | 'bare' | 'light';
type Command = { cmd: 'stats' } | { cmd: 'reset'; mode: SinkMode };

const expected = Number(process.argv[2] ?? 0);
const links = Number(process.argv[3] ?? 10);
const siteHost = process.argv[4] ?? '';

let mode: SinkMode = 'newsletter';
let cpuAtReset = process.cpuUsage();
let byRecipient = new Uint8Array(expected + 1);
let ids = new Set<string>();
let stats: SinkStats = emptyStats();

function emptyStats(): SinkStats {
  return {
    accepted: 0,
    uniqueRecipients: 0,
    duplicatesById: 0,
    duplicatesByRecipient: 0,
    unknownRecipients: 0,
    missingUnsubscribe: 0,
    brokenTracking: 0,
    firstAt: null,
    lastAt: null,
    sample: null,
    cpuUs: 0,
    problems: [],
    wire: { connections: 0, commands: {}, reads: 0, bytes: 0 },
  };
}

function problem(text: string) {
  if (stats.problems.length < 10) stats.problems.push(text);
}

const headerPatterns = new Map<string, RegExp>();

function header(head: string, name: string): string | null {
  let pattern = headerPatterns.get(name);
  if (!pattern) {
    // Unfold first: a long header continues on lines starting with white space.
    pattern = new RegExp(`^${name}:[ \\t]*(.*(?:\\r\\n[ \\t].*)*)`, 'im');
    headerPatterns.set(name, pattern);
  }
  const match = pattern.exec(head);
  return match ? match[1]!.replace(/\r\n[ \t]+/g, ' ').trim() : null;
}

const TRACKED_LINK = /\/t\/c\/([A-Za-z0-9_-]+)\/(\d+)/g;

function check(raw: string, to: string) {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const messageId = header(head, 'Message-ID')?.replace(/[<>]/g, '') ?? null;
  if (messageId) {
    if (ids.has(messageId)) stats.duplicatesById++;
    // A copy: the id is a slice of the raw message, and V8 would keep the whole message alive for it
    // (some 12 KB each: at 1,000,000 messages the sink ran out of heap).
    else ids.add(Buffer.from(messageId, 'latin1').toString('latin1'));
  }
  const index = /^reader(\d+)@example\.com$/i.exec(to);
  const i = index ? Number(index[1]) : 0;
  if (i < 1 || i > expected) {
    stats.unknownRecipients++;
    problem(`unknown recipient ${to}`);
  } else if (byRecipient[i]! > 0) {
    stats.duplicatesByRecipient++;
    if (byRecipient[i]! < 255) byRecipient[i]!++;
  } else {
    byRecipient[i] = 1;
    stats.uniqueRecipients++;
  }
  const unsubscribe = header(head, 'List-Unsubscribe');
  const token = unsubscribe ? /\/u\/([A-Za-z0-9_-]+)>/.exec(unsubscribe)?.[1] : undefined;
  if (!token || header(head, 'List-Unsubscribe-Post') !== 'List-Unsubscribe=One-Click') {
    stats.missingUnsubscribe++;
    problem(`no one-click List-Unsubscribe in ${messageId}: ${unsubscribe}`);
    return;
  }
  // The HTML part (the text part keeps the links as written: tracked plain-text links read as spam).
  // Quoted-printable soft line breaks may cut a link; "=3D" is an encoded "=".
  const htmlStart = raw.indexOf('Content-Type: text/html', split);
  const body = (htmlStart < 0 ? '' : raw.slice(htmlStart)).replace(/=\r\n/g, '').replace(/=3D/g, '=');
  const seen = new Set<string>();
  // One pattern for every message, not one per token: a pattern built from each message's own token was
  // compiled anew for every message of a real send, while the bare baseline, which sends one message
  // again and again, found it compiled already; the check cost the sink some 60 µs more per message of
  // ours than per message of the baseline (measured 2026-11-29), for no difference on the wire.
  for (const m of body.matchAll(TRACKED_LINK)) if (m[1] === token) seen.add(m[2]!);
  const pixel = body.includes(`/t/o/${token}.gif`);
  const untracked = siteHost !== '' && body.includes(`://${siteHost}/`);
  if (seen.size !== links || !pixel || untracked) {
    stats.brokenTracking++;
    problem(`tracking of ${messageId}: ${seen.size} links, pixel ${pixel}, untracked link ${untracked}`);
  }
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  allowInsecureAuth: true,
  logger: false,
  size: 20 * 1024 * 1024,
  closeTimeout: 500,
  onAuth(auth, _session, callback) {
    callback(null, { user: auth.username });
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const at = Date.now();
      stats.firstAt ??= at;
      stats.lastAt = at;
      stats.accepted++;
      if (mode !== 'light') {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (stats.sample === null) stats.sample = raw;
        for (const rcpt of session.envelope.rcptTo) check(raw, rcpt.address.toLowerCase());
      }
      callback();
    });
  },
});
server.on('error', () => {});

// The wire counters: each connection, each read of its socket and each command it sends (smtp-server
// hands every command line to the connection's _onCommand; message lines go to the DATA stream instead).
type SinkConnection = { _onCommand: (command: Buffer | string, callback: unknown) => unknown };
const accept = server.connect.bind(server);
server.connect = (socket, socketOptions) => {
  stats.wire.connections++;
  socket.on('data', (chunk: Buffer) => {
    stats.wire.reads++;
    stats.wire.bytes += chunk.length;
  });
  accept(socket, socketOptions);
  const connection = [...server.connections].at(-1) as unknown as SinkConnection | undefined;
  if (!connection) return;
  const onCommand = connection._onCommand.bind(connection);
  connection._onCommand = (command, callback) => {
    const line = typeof command === 'string' ? command : command.toString('latin1', 0, 12);
    const name = line.split(' ')[0]!.toUpperCase();
    const { commands } = stats.wire;
    commands[name] = (commands[name] ?? 0) + 1;
    return onCommand(command, callback);
  };
};
server.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.server.address() as AddressInfo).port });
});

process.on('message', (message: Command) => {
  if (message.cmd === 'reset') {
    mode = message.mode;
    cpuAtReset = process.cpuUsage();
    byRecipient = new Uint8Array(expected + 1);
    ids = new Set();
    stats = emptyStats();
    process.send!({ ok: true });
  } else if (message.cmd === 'stats') {
    const cpu = process.cpuUsage(cpuAtReset);
    stats.cpuUs = cpu.user + cpu.system;
    process.send!({ stats });
  }
});
process.on('disconnect', () => server.close(() => process.exit(0)));
// Killed by the bench at the end: exit normally, so a --cpu-prof profile (BENCH_SINK_PROFILE) is written.
process.on('SIGTERM', () => process.exit(0));
