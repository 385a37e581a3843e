import { z } from 'zod';

/**
 * The largest email body, in UTF-8 bytes: what the sending engine accepts (message-content.ts), so a
 * body the forms take is a body that can be sent. Counted in bytes, not characters: 2 MB of Yoruba or
 * Chinese text is 4–6 MB as it goes out.
 */
export const EMAIL_BODY_MAX_BYTES = 2 * 1024 * 1024;

/** The largest template body, in UTF-8 bytes. */
export const TEMPLATE_BODY_MAX_BYTES = 512 * 1024;

/** A string's length in UTF-8 bytes, without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    // Two bytes below U+0800; three for the rest of the BMP; a surrogate pair (four bytes) counts two
    // units of two each. A lone surrogate is sent as U+FFFD, three bytes.
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      bytes += next >= 0xdc00 && next <= 0xdfff ? 1 : 2;
    } else if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
      const prev = text.charCodeAt(i - 1);
      bytes += prev >= 0xd800 && prev <= 0xdbff ? 1 : 2;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * A string of at most `maxBytes` UTF-8 bytes. The length check comes first and stops there when it fails
 * (`abort`), so a string too long in characters is not walked, and its error is given once.
 */
export function maxUtf8Bytes(maxBytes: number, message: string) {
  return z
    .string()
    .max(maxBytes, { message, abort: true })
    .refine((text) => utf8ByteLength(text) <= maxBytes, message);
}

/** An email body (campaign steps, newsletters and bulk emails, previews). */
export const emailBodyHtml = maxUtf8Bytes(EMAIL_BODY_MAX_BYTES, 'The email body is too large (max 2 MB)');
