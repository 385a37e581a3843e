import type { AddressInfo } from 'node:net';
import type { Transform } from 'node:stream';
import { seededRandom } from '@server/lib/seeded-random';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dotStuffedPieces,
  speedUpDataStream,
  speedUpDotStuffing,
  stuffDots,
  vouchCrlfOnly,
} from './smtp-dot-stuffing';

/*
 * The fast DATA dot-stuffing must put on the wire exactly what nodemailer's own DataStream does. The
 * reference is the DataStream class nodemailer really uses, taken from a message sent through a real
 * SMTPConnection to a real smtp-server on loopback: if nodemailer stops creating its stream the way
 * smtp-dot-stuffing.ts expects, that send shows it and these tests fail.
 */

interface DataStreamLike extends Transform {
  inByteCount: number;
  outByteCount: number;
  lastByte: number | false;
}
type DataStreamClass = new () => DataStreamLike;

let server: SMTPServer;
let port = 0;
const received: Buffer[] = [];
/** The DATA streams of the messages sent in beforeAll, as nodemailer made them. */
const streams: DataStreamLike[] = [];
let sentInfo: { messageSize?: number; response: string };
let StockDataStream: DataStreamClass;

const MESSAGE = Buffer.from(
  '.From the first byte\r\nSubject: dots\r\n\r\n.one\r\n..two\r\nthree.\r\n.\r\n. \r\nend\r\n',
);

beforeAll(async () => {
  server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.server.address() as AddressInfo).port;

  const connection = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true });
  expect(speedUpDotStuffing(connection)).toBe(true);
  // Watches what the sped-up _createSendStream hands to send().
  const internals = connection as unknown as { _createSendStream: (cb: unknown) => DataStreamLike };
  const create = internals._createSendStream;
  internals._createSendStream = (cb) => {
    const stream = create.call(connection, cb);
    streams.push(stream);
    return stream;
  };
  await new Promise<void>((resolve, reject) => connection.connect((e) => (e ? reject(e) : resolve())));
  sentInfo = await new Promise((resolve, reject) =>
    connection.send({ from: 'ada@kanofoods.ng', to: ['bola@example.com'] }, MESSAGE, (e, info) =>
      e ? reject(e) : resolve(info),
    ),
  );
  connection.quit();
  StockDataStream = Object.getPrototypeOf(streams[0]!).constructor as DataStreamClass;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

interface Run {
  out: Buffer;
  inByteCount: number;
  outByteCount: number;
  lastByte: number | false;
}

/** Writes the chunks one by one through a DataStream, sped up or not, and reads all it gives. */
function run(chunks: Buffer[], fast: boolean): Promise<Run> {
  const stream = new StockDataStream();
  if (fast) expect(speedUpDataStream(stream)).toBe(true);
  const out: Buffer[] = [];
  stream.on('data', (c: Buffer) => out.push(Buffer.from(c)));
  return new Promise((resolve, reject) => {
    stream.on('error', reject);
    stream.on('end', () =>
      resolve({
        out: Buffer.concat(out),
        inByteCount: stream.inByteCount,
        outByteCount: stream.outByteCount,
        lastByte: stream.lastByte,
      }),
    );
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
}

// Mostly proper lines with leading dots; a third of the inputs also get bare CRs and LFs.
const CLEAN_PIECES = ['a', 'xyz', '.', '..', '\r\n', '\r\n.', '\r\n..', ' ', '=2E', '\t', '\u00e9'];
const ODD_PIECES = ['\r', '\n', '\r.', '\n.', '\r\r', '\n\n', '.\r', '\n\r'];

function randomMessage(next: () => number): { message: Buffer; clean: boolean } {
  const clean = next() < 0.66;
  const pieces = clean ? CLEAN_PIECES : [...CLEAN_PIECES, ...ODD_PIECES];
  let text = '';
  const length = Math.floor(next() * 60);
  for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
  return { message: Buffer.from(text), clean };
}

/** Cuts anywhere, a CRLF included, with an empty chunk now and then. */
function randomChunks(message: Buffer, next: () => number): Buffer[] {
  const chunks: Buffer[] = [];
  let at = 0;
  while (at < message.length) {
    const size = next() < 0.3 ? message.length - at : Math.floor(next() * 8);
    chunks.push(message.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

describe('DATA dot-stuffing', () => {
  it('nodemailer still sends through the stream it expects, and the message arrives intact', () => {
    expect(streams).toHaveLength(1);
    const stream = streams[0]!;
    // The connection's stream got the fast path, and sent what the stock one would count.
    expect(stream._transform).not.toBe(StockDataStream.prototype._transform);
    expect(received).toHaveLength(1);
    expect(received[0]!.equals(MESSAGE)).toBe(true);
    expect(sentInfo.response).toMatch(/^250 /);
    // Four dots at line starts stuffed, and the closing CRLF.CRLF.
    expect(sentInfo.messageSize).toBe(MESSAGE.length + 5 + 3);
  });

  it('gives the bytes, counts and last byte of nodemailer own loop on random input cut anywhere', async () => {
    const next = seededRandom(19);
    let fastChunks = 0;
    for (let i = 0; i < 3_000; i++) {
      const { message } = randomMessage(next);
      const chunks = randomChunks(message, next);
      const stock = await run(chunks, false);
      const fast = await run(chunks, true);
      expect(fast.out.toString('latin1'), JSON.stringify(chunks.map((c) => c.toString('latin1')))).toBe(
        stock.out.toString('latin1'),
      );
      expect(fast).toEqual(stock);
      let last: number | false = false;
      for (const chunk of chunks) {
        if (chunk.length === 0) continue;
        if (stuffDots(chunk, last)) fastChunks++;
        last = chunk[chunk.length - 1]!;
      }
    }
    // Not a comparison of the loop with itself: most chunks took the fast path.
    expect(fastChunks).toBeGreaterThan(3_000);
  });

  it('takes the fast path for CRLF-only messages, whole or cut, and leaves odd line ends to the loop', () => {
    expect(stuffDots(Buffer.from('a\r\n.b\r\n'), false)?.toString()).toBe('a\r\n..b\r\n');
    expect(stuffDots(Buffer.from('.b\r\n'), false)?.toString()).toBe('..b\r\n');
    expect(stuffDots(Buffer.from('.b\r\n'), 0x0a)?.toString()).toBe('..b\r\n');
    expect(stuffDots(Buffer.from('.b\r\n'), 0x62)?.toString()).toBe('.b\r\n');
    expect(stuffDots(Buffer.from('a\r'), false)).toBeNull();
    expect(stuffDots(Buffer.from('\n.b'), 0x0d)).toBeNull();
    expect(stuffDots(Buffer.from('a\rb'), false)).toBeNull();
    expect(stuffDots(Buffer.from('a\nb'), false)).toBeNull();
  });

  it('gives the bytes of nodemailer own loop for whole CRLF-only messages vouched for, dots stuffed', async () => {
    const next = seededRandom(23);
    let vouched = 0;
    for (let i = 0; i < 2_000; i++) {
      const { message, clean } = randomMessage(next);
      // Clean pieces only: every CR and LF is in a CRLF, as a composer that vouches guarantees.
      if (!clean || message.length === 0) continue;
      const stock = await run([message], false);
      const fast = await run([vouchCrlfOnly(Buffer.from(message))], true);
      expect(fast).toEqual(stock);
      vouched++;
    }
    expect(vouched).toBeGreaterThan(1_000);
    const message = vouchCrlfOnly(Buffer.from('.From\r\nSubject: x\r\n\r\n.one\r\n..two\r\n'));
    expect(stuffDots(message, false)?.toString()).toBe('..From\r\nSubject: x\r\n\r\n..one\r\n...two\r\n');
    // After a CR the loop decides, vouched or not.
    expect(stuffDots(vouchCrlfOnly(Buffer.from('\n.b')), 0x0d)).toBeNull();
  });

  it('stuffs the dots of a message without copying it: views of it, the stuffed dots between them', async () => {
    // Its own memory (not a slice of Node's shared pool), so a view of it is told from a copy.
    const own = (text: string) => Buffer.from(new TextEncoder().encode(text).buffer);
    const message = vouchCrlfOnly(own('.From\r\nSubject: x\r\n\r\n.one\r\ntwo\r\n'));
    const pieces = dotStuffedPieces(message, false)!;
    expect(pieces.map((p) => p.toString())).toEqual([
      '.',
      '.From\r\nSubject: x\r\n\r\n',
      '.',
      '.one\r\ntwo\r\n',
    ]);
    expect(pieces.filter((p) => p.buffer === message.buffer)).toHaveLength(2);
    // No dot to stuff: the message itself.
    const plain = vouchCrlfOnly(own('a\r\nb.\r\n'));
    expect(dotStuffedPieces(plain, false)).toEqual([plain]);
    expect(dotStuffedPieces(plain, false)![0]).toBe(plain);
    // Through the stream: what leaves are those views, not a copy of the message.
    const stream = new StockDataStream();
    speedUpDataStream(stream);
    const out: Buffer[] = [];
    stream.on('data', (c: Buffer) => out.push(c));
    await new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.end(message);
    });
    expect(Buffer.concat(out).toString()).toBe('..From\r\nSubject: x\r\n\r\n..one\r\ntwo\r\n.\r\n');
    expect(out.filter((c) => c.buffer === message.buffer).length).toBe(2);
    expect(stream.outByteCount).toBe(Buffer.concat(out).length);
  });

  it('trusts the vouch: a vouched message is not searched for bare line ends (the composer checked)', () => {
    expect(stuffDots(Buffer.from('a\nb'), false)).toBeNull();
    expect(stuffDots(vouchCrlfOnly(Buffer.from('a\nb')), false)?.toString()).toBe('a\nb');
  });

  it('writes a message and its closing dot to the socket in one write, and the next message after it', async () => {
    const connection = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true });
    expect(speedUpDotStuffing(connection)).toBe(true);
    await new Promise<void>((resolve, reject) => connection.connect((e) => (e ? reject(e) : resolve())));
    // Every write the socket makes to the kernel, as the bytes it hands over.
    const socket = (connection as unknown as { _socket: Record<string, unknown> })._socket;
    const writes: string[] = [];
    const writeGeneric = socket._writeGeneric as (...args: unknown[]) => unknown;
    socket._writeGeneric = function (this: unknown, writev: boolean, data: unknown, ...rest: unknown[]) {
      const parts = writev ? (data as { chunk: Buffer | string }[]).map((d) => d.chunk) : [data as Buffer];
      writes.push(parts.map((p) => (typeof p === 'string' ? p : p.toString('latin1'))).join(''));
      return writeGeneric.call(this, writev, data, ...rest);
    };
    const sendOne = (message: Buffer) =>
      new Promise<{ response: string }>((resolve, reject) =>
        connection.send({ from: 'ada@kanofoods.ng', to: ['bola@example.com'] }, message, (e, info) =>
          e ? reject(e) : resolve(info),
        ),
      );
    const before = received.length;
    await sendOne(MESSAGE);
    await sendOne(Buffer.from('Subject: two\r\n\r\nno dots'));
    connection.quit();
    const stuffed = MESSAGE.toString('latin1').replace(/(^|\n)\./g, '$1..');
    expect(writes).toContain(`${stuffed}.\r\n`);
    expect(writes).toContain('Subject: two\r\n\r\nno dots\r\n.\r\n');
    expect(received.slice(before).map((r) => r.toString('latin1'))).toEqual([
      MESSAGE.toString('latin1'),
      'Subject: two\r\n\r\nno dots\r\n',
    ]);
  });

  it('sends messages larger than the socket buffer (64 KiB), vouched or not, whole and in order', async () => {
    // A corked socket never drains: a message past its high-water mark waited for 'drain' forever and
    // the send timed out (bodies may be up to 2 MB; a quoted-printable newsletter passes 64 KiB).
    const connection = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true, socketTimeout: 4000 });
    expect(speedUpDotStuffing(connection)).toBe(true);
    await new Promise<void>((resolve, reject) => connection.connect((e) => (e ? reject(e) : resolve())));
    const sendOne = (message: Buffer) =>
      new Promise<{ response: string }>((resolve, reject) =>
        connection.send({ from: 'ada@kanofoods.ng', to: ['bola@example.com'] }, message, (e, info) =>
          e ? reject(e) : resolve(info),
        ),
      );
    const bodyOf = (bytes: number) => {
      const line = '.a line that starts with a dot and fills the message with text ..\r\n';
      return `Subject: big\r\n\r\n${line.repeat(Math.ceil(bytes / line.length))}`;
    };
    const messages = [70_000, 200_000, 2_000_000].flatMap((bytes) => [
      Buffer.from(bodyOf(bytes)),
      vouchCrlfOnly(Buffer.from(bodyOf(bytes))),
    ]);
    const before = received.length;
    for (const message of messages) await sendOne(message);
    await sendOne(MESSAGE);
    connection.quit();
    expect(received.slice(before).map((r) => r.toString('latin1'))).toEqual(
      [...messages, MESSAGE].map((m) => m.toString('latin1')),
    );
  }, 30_000);

  it('leaves a stream that is not a DataStream alone', () => {
    expect(speedUpDataStream({ _transform() {} })).toBe(false);
    // As nodemailer would be if it stopped creating its DATA stream in _createSendStream.
    const connection = { send() {} } as unknown as SMTPConnection;
    expect(speedUpDotStuffing(connection)).toBe(false);
  });
});
