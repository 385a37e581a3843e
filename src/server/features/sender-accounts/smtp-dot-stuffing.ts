import { Transform, type TransformCallback, Writable } from 'node:stream';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';

/*
 * nodemailer's SMTP DATA stream (smtp-connection/data-stream.js) escapes dots at line starts and turns
 * bare CR and bare LF into CRLF with a JavaScript loop over every byte: about 70 µs of CPU for a 12 KB
 * message, some 7% of a dispatch worker's time. Our messages are finished bytes with CRLF line ends only
 * (raw-message.ts), for which that loop only ever inserts a dot before a dot that starts a line. So
 * each chunk is checked first, with one regular expression, for a bare CR or LF; when it has none,
 * the dots are found with indexOf and the bytes are otherwise passed on as they are. Anything else (a
 * bare CR or LF, a chunk that follows a CR, a string) goes through nodemailer's own loop. Either way
 * the bytes on the wire, the stream's byte counts and its last byte are what nodemailer's loop gives:
 * smtp-dot-stuffing.test.ts compares the two on random input.
 *
 * This reaches into nodemailer's internals (the connection's _createSendStream, the stream's
 * _transform, inByteCount, outByteCount and lastByte). Where they are not there, the connection is
 * left as it is, and the test that looks for them fails, so an upgrade that moves them is noticed.
 */

const LF = 0x0a;
const CR = 0x0d;
const DOT = 0x2e;
const STUFFED_DOT = Buffer.from('.');
const LINE_DOT = Buffer.from('\n.');
/** A CR not followed by LF, or an LF not preceded by CR (at the chunk's start too: left to the loop). */
const BARE_LINE_END = /\r(?!\n)|(?<!\r)\n/;

/*
 * Messages whose composer vouches that every CR and LF in them is part of a CRLF (raw-message.ts checks
 * the pieces it builds a message from, once per template): for those the bare line end check, a latin1
 * copy of the whole message searched by a regular expression (~5 µs for 12 KB), is skipped. A WeakSet,
 * not a property on the Buffer: nothing else sees it, and a Buffer sliced or copied is not vouched for.
 */
const crlfOnly = new WeakSet<Buffer>();

/** Says that `message` has no bare CR or LF (none outside a CRLF), so the DATA stream need not look. */
export function vouchCrlfOnly(message: Buffer): Buffer {
  crlfOnly.add(message);
  return message;
}

export function isVouchedCrlfOnly(message: Buffer): boolean {
  return crlfOnly.has(message);
}

/** nodemailer's DataStream, as much of it as this file uses. */
interface DataStream extends Transform {
  inByteCount: number;
  outByteCount: number;
  /** The previous chunk's last byte; false before the first. */
  lastByte: number | false;
}

type CreateSendStream = (callback: (...args: unknown[]) => void) => unknown;

function isDataStream(stream: unknown): stream is DataStream {
  return (
    stream instanceof Transform &&
    typeof (stream as Partial<DataStream>).inByteCount === 'number' &&
    typeof (stream as Partial<DataStream>).outByteCount === 'number' &&
    'lastByte' in stream
  );
}

/**
 * What nodemailer's loop makes of `chunk` after `lastByte`, when that is no more than escaping dots at
 * line starts, as pieces to write one after another: views of the chunk with the stuffed dots between
 * them (nothing copied), or the chunk alone when it has no dot to stuff. Null when the chunk needs the
 * loop (bare CR or LF, or it follows a CR).
 */
export function dotStuffedPieces(chunk: Buffer, lastByte: number | false): Buffer[] | null {
  if (lastByte === CR || (!crlfOnly.has(chunk) && BARE_LINE_END.test(chunk.toString('latin1')))) return null;
  let pieces: Buffer[] | null = null;
  let from = 0;
  // A dot as the chunk's first byte starts a line after the previous chunk's LF, or the message.
  if (chunk[0] === DOT && (lastByte === LF || lastByte === false)) pieces = [STUFFED_DOT];
  for (let lf = chunk.indexOf(LINE_DOT); lf >= 0; lf = chunk.indexOf(LINE_DOT, lf + 2)) {
    pieces ??= [];
    pieces.push(chunk.subarray(from, lf + 1), STUFFED_DOT);
    from = lf + 1;
  }
  if (!pieces) return [chunk];
  pieces.push(chunk.subarray(from));
  return pieces;
}

/** dotStuffedPieces as one Buffer. */
export function stuffDots(chunk: Buffer, lastByte: number | false): Buffer | null {
  const pieces = dotStuffedPieces(chunk, lastByte);
  if (!pieces) return null;
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

/** Gives one nodemailer DataStream the fast path; false (and the stream untouched) if it is not one. */
export function speedUpDataStream(stream: unknown): stream is DataStream {
  if (!isDataStream(stream)) return false;
  const stock = stream._transform;
  stream._transform = (chunk: unknown, encoding: BufferEncoding, done: TransformCallback) => {
    // Streams hand _transform Buffers (decodeStrings); anything else, or nothing, is the loop's.
    const pieces =
      Buffer.isBuffer(chunk) && chunk.length > 0 ? dotStuffedPieces(chunk, stream.lastByte) : null;
    if (!pieces) return stock.call(stream, chunk, encoding, done);
    const input = chunk as Buffer;
    stream.inByteCount += input.length;
    // Pushed one by one rather than joined: a 12 kB message with a few dots was copied whole into a
    // new Buffer; the socket (corked until the message ends, writeAsOne) sends the pieces in one write.
    for (const piece of pieces) {
      stream.outByteCount += piece.length;
      stream.push(piece);
    }
    stream.lastByte = input[input.length - 1]!;
    done();
  };
  return true;
}

/**
 * Holds the socket's writes from the moment the DATA stream is piped to it until that stream ends, so a
 * message and its closing "." leave in one write (one system call and one wake-up of the server) instead
 * of two: the stream pushes the message when it is written and the closing line later, when it ends.
 * The bytes and their order are the same. A stream that fails instead of ending lets go too ('close').
 * So does a message larger than the socket's buffer (64 KiB): the pipe then pauses the stream until the
 * socket drains, and a corked socket never drains, so holding on would leave the message unsent until
 * the connection timed out ('pause'; the rest of that message goes out as the socket takes it).
 */
function writeAsOne(stream: Transform, socket: Writable): void {
  socket.cork();
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    socket.uncork();
  };
  stream.once('end', release);
  stream.once('close', release);
  stream.once('pause', release);
}

/**
 * Makes the DATA stream of every message this connection sends take the fast path, and go out in one
 * write. False when the connection does not create its stream the way this expects: it then sends as
 * nodemailer does.
 */
export function speedUpDotStuffing(connection: SMTPConnection): boolean {
  const internals = connection as unknown as { _createSendStream?: CreateSendStream; _socket?: unknown };
  const create = internals._createSendStream;
  if (typeof create !== 'function') return false;
  internals._createSendStream = function (this: typeof internals, callback) {
    const stream = create.call(this, callback);
    if (speedUpDataStream(stream) && this._socket instanceof Writable) writeAsOne(stream, this._socket);
    return stream;
  };
  return true;
}
