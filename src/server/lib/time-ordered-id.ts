import { randomUUID } from 'node:crypto';

/*
 * Keys that grow with time. A B-tree on random keys (UUIDv4, random tokens) puts every new entry on a
 * random leaf page, so once the index is larger than PostgreSQL's shared buffers each write reads a page
 * back in, evicts another and, after a checkpoint, logs a full-page image of it. The outbox writes each
 * row three or four times, and every one of those row versions adds an entry to each index: measured on
 * bench/newsletter-million, PostgreSQL's cost per message grew with the newsletter's size. A key that
 * starts with the time keeps the entries written together (a batch queued, claimed, sent) on a few
 * neighbouring pages whatever the table's size.
 */

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then randomness (74 bits), in UUID text form.
 * Built from randomUUID (cached entropy, no call into OpenSSL per id) with the time written over its
 * first twelve digits and the version digit set to 7; the variant bits stay as randomUUID set them.
 */
export function timeOrderedUuid(at: number = Date.now()): string {
  const random = randomUUID();
  const time = Math.floor(at).toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}

/**
 * Four bytes of the time in seconds, big-endian, written into `target` at `offset`: the prefix of a
 * random public token, so tokens drawn in the same second sort together (the randomness after it is
 * unchanged, so the token is exactly as hard to guess).
 */
export function writeSecondsPrefix(target: Buffer, offset: number, at: number = Date.now()): void {
  target.writeUInt32BE(Math.floor(at / 1000) >>> 0, offset);
}
