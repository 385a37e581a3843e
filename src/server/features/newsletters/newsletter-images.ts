import { randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Multipart } from '@fastify/multipart';
import { AppError } from '@server/lib/errors';
import { NEWSLETTER_IMAGE_MAX_BYTES, NEWSLETTER_MESSAGES } from '@shared/newsletters';

/*
 * Images for newsletters: uploaded once, served publicly at /media/<random>.<ext> (mail clients fetch
 * them without a session). The type is decided by the file's first bytes, never by its name or the
 * browser's claim; SVG is not accepted (it can carry script). Files live under DATA_DIR/media — not
 * DATA_DIR/uploads, whose clean-up job removes files no import owns.
 */

export const MEDIA_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp)$/;

const CONTENT_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;
export type ImageExtension = keyof typeof CONTENT_TYPES;

/** The image type from its magic bytes, or null. */
export function sniffImage(bytes: Buffer): ImageExtension | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

export function mediaDir(dataDir: string): string {
  return path.resolve(dataDir, 'media');
}

export function contentTypeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1) as ImageExtension;
  return CONTENT_TYPES[ext];
}

export async function saveNewsletterImage(options: {
  dataDir: string;
  appUrl: string;
  parts: AsyncIterableIterator<Multipart>;
}): Promise<{ url: string }> {
  let bytes: Buffer | null = null;
  try {
    for await (const part of options.parts) {
      if (part.type === 'field') continue;
      if (bytes !== null) {
        part.file.resume();
        continue;
      }
      bytes = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('payload_too_large', NEWSLETTER_MESSAGES.imageTooLarge);
    if (code === 'FST_FILES_LIMIT') throw new AppError('bad_request', 'Upload one image at a time.');
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) throw error;
    throw new AppError('bad_request', NEWSLETTER_MESSAGES.imageMissing);
  }
  if (!bytes || bytes.length === 0) throw new AppError('bad_request', NEWSLETTER_MESSAGES.imageMissing);
  if (bytes.length > NEWSLETTER_IMAGE_MAX_BYTES) {
    throw new AppError('payload_too_large', NEWSLETTER_MESSAGES.imageTooLarge);
  }
  const ext = sniffImage(bytes);
  if (!ext) throw new AppError('unsupported_media_type', NEWSLETTER_MESSAGES.imageType);
  const dir = mediaDir(options.dataDir);
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString('hex')}.${ext}`;
  const temp = path.join(dir, `.${name}.part`);
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, path.join(dir, name));
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  return { url: `${options.appUrl}/media/${name}` };
}

/** The stored file's path when `name` is one of ours and exists. */
export async function findMediaFile(dataDir: string, name: string): Promise<string | null> {
  if (!MEDIA_NAME.test(name)) return null;
  const file = path.join(mediaDir(dataDir), name);
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? file : null;
}
