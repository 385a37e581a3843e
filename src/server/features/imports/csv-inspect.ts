import chardet from 'chardet';
import iconv from 'iconv-lite';
import { CUSTOM_FIELD_NAME_MAX } from '../../../shared/contacts';
import {
  IMPORT_DELIMITERS,
  IMPORT_FIELDS_BY_TARGET,
  IMPORT_MESSAGES,
  type ImportDelimiter,
  type ImportEncoding,
  type ImportField,
  type ImportInspection,
  type ImportMapping,
  type ImportTarget,
  MAX_CUSTOM_FIELDS,
  type MappingValue,
  RESERVED_FIELD_NAMES,
} from '../../../shared/imports';
import { AppError } from '../../lib/errors';
import { toStorableText } from '../../lib/input-hygiene';
import { parseRecords, RecordSplitter } from './csv-records';
import { fieldForHeader, normaliseHeader } from './header-synonyms';

/** How much of the file's head is read to detect its shape. */
export const INSPECT_BYTES = 256 * 1024;
export const MAX_COLUMNS = 1000;
const PREVIEW_ROWS = 10;
const SAMPLE_VALUES = 5;
const SCAN_ROWS = 200;

export interface InspectOverrides {
  encoding?: ImportEncoding;
  delimiter?: ImportDelimiter;
  hasHeader?: boolean;
}

export interface InspectResult extends ImportInspection {
  lineBreak: '\n' | '\r';
}

export const LOOKS_LIKE_EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** "Ada Obi <ada@x.com>" and "mailto:ada@x.com" hold an address too. */
export function extractEmail(value: string): string {
  let v = value.trim();
  if (v.indexOf('<') === -1 && v.indexOf(':') === -1) return v;
  const angle = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(v);
  if (angle) v = angle[1]!;
  if (v.length > 7 && v.slice(0, 7).toLowerCase() === 'mailto:') v = v.slice(7);
  return v;
}

function looksLikeEmail(value: string): boolean {
  return value.length <= 320 && LOOKS_LIKE_EMAIL.test(extractEmail(value));
}

/**
 * Inspects the head of an uploaded file: encoding, delimiter, header row, columns with samples, the
 * first rows and a suggested mapping. Throws a 400 AppError with a user-facing message for files that
 * cannot be imported (empty, header only, binary, no email column).
 */
export function inspectHead(input: {
  head: Buffer;
  /** The head is the whole file. */
  complete: boolean;
  fileSize: number;
  target: ImportTarget;
  overrides?: InspectOverrides;
}): InspectResult {
  const { head, complete, fileSize, target, overrides = {} } = input;
  if (fileSize === 0 || head.length === 0) throw badFile(IMPORT_MESSAGES.empty);
  const spreadsheet = spreadsheetKind(head);
  if (spreadsheet) throw badFile(IMPORT_MESSAGES.spreadsheet);
  const detected = detectEncoding(head);
  if (detected === 'binary' && !overrides.encoding) throw badFile(IMPORT_MESSAGES.notCsv);
  const encoding = overrides.encoding ?? (detected as ImportEncoding);
  const text = decodeHead(head, encoding, complete);
  if (text.trim() === '') throw badFile(IMPORT_MESSAGES.empty);
  if (!looksLikeText(text)) throw badFile(IMPORT_MESSAGES.notCsv);

  const lineBreak: '\n' | '\r' = text.includes('\n') || !text.includes('\r') ? '\n' : '\r';
  const delimiter = overrides.delimiter ?? detectDelimiter(text, lineBreak, complete);
  const { rows, recordCount, consumedChars } = readRows(text, delimiter, lineBreak, complete, SCAN_ROWS);
  if (rows.length === 0) throw badFile(IMPORT_MESSAGES.empty);

  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (width > MAX_COLUMNS) throw badFile(IMPORT_MESSAGES.tooManyColumns(width, MAX_COLUMNS));

  const hasHeader = overrides.hasHeader ?? detectHeader(rows);
  const headerRow = hasHeader ? rows[0]! : [];
  const dataRows = hasHeader ? rows.slice(1) : rows;
  if (dataRows.length === 0) {
    if (complete && hasHeader) throw badFile(IMPORT_MESSAGES.headerOnly);
    throw badFile(IMPORT_MESSAGES.empty);
  }

  const headers = Array.from({ length: width }, (_, i) => headerRow[i]?.trim() || `Column ${i + 1}`);
  const emailCounts = headers.map((_, i) => dataRows.filter((row) => looksLikeEmail(row[i] ?? '')).length);
  const emailColumn = pickEmailColumn(headers, emailCounts, hasHeader);
  if (emailColumn === -1) {
    const named = hasHeader ? headers.findIndex((h) => fieldForHeader(h) === 'email') : -1;
    throw badFile(
      named === -1 ? IMPORT_MESSAGES.noEmailColumn : IMPORT_MESSAGES.emailColumnEmpty(headers[named]!),
    );
  }

  const columns = headers.map((header, index) => ({
    index,
    header: clip(header, 200),
    sample: dataRows
      .map((row) => row[index]?.trim() ?? '')
      .filter((v) => v !== '')
      .slice(0, SAMPLE_VALUES)
      .map((v) => clip(v, 100)),
  }));
  const previewRows = dataRows
    .slice(0, PREVIEW_ROWS)
    .map((row) => headers.map((_, i) => clip(row[i]?.trim() ?? '', 200)));
  const suggestedMapping = suggestMapping({ headers, hasHeader, dataRows, emailColumn, target });
  const estimatedRows =
    complete && recordCount <= SCAN_ROWS
      ? dataRows.length
      : Math.max(
          dataRows.length,
          Math.round((fileSize * recordCount) / byteLength(text, consumedChars, head, encoding)) -
            (hasHeader ? 1 : 0),
        );
  return { encoding, delimiter, hasHeader, lineBreak, columns, previewRows, suggestedMapping, estimatedRows };
}

function badFile(message: string) {
  return new AppError('bad_request', message);
}

function clip(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function spreadsheetKind(head: Buffer): 'xlsx' | 'xls' | null {
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) return 'xlsx';
  if (head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0 && head.readUInt32BE(4) === 0xa1b11ae1)
    return 'xls';
  return null;
}

/** UTF-8 (with or without BOM), UTF-16 LE/BE (BOM or the zero-byte pattern), else Windows-1252. */
export function detectEncoding(head: Buffer): ImportEncoding | 'binary' {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const sample = head.subarray(0, 8192);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  }
  const pairs = Math.floor(sample.length / 2) || 1;
  if (oddZeros / pairs > 0.3 && evenZeros / pairs < 0.05) return 'utf-16le';
  if (evenZeros / pairs > 0.3 && oddZeros / pairs < 0.05) return 'utf-16be';
  if (evenZeros + oddZeros > 0) return 'binary';
  if (isValidUtf8(head) || mostlyUtf8(sample)) return 'utf-8';
  const guess = chardet.analyse(sample)[0]?.name?.toLowerCase() ?? '';
  if (guess === 'utf-16le') return 'utf-16le';
  if (guess === 'utf-16be') return 'utf-16be';
  // Any byte string decodes in Windows-1252 (a superset of ISO-8859-1 for text): what spreadsheet
  // programs on Windows write when they do not write UTF-8.
  return 'windows-1252';
}

/**
 * Mixed encodings: a UTF-8 file with a few Windows-1252 lines pasted in. More valid multi-byte UTF-8
 * sequences than stray high bytes → UTF-8, and the stray lines are rejected row by row (U+FFFD).
 */
function mostlyUtf8(sample: Buffer): boolean {
  let sequences = 0;
  let stray = 0;
  for (let i = 0; i < sample.length; i++) {
    const byte = sample[i]!;
    if (byte < 0x80) continue;
    const length =
      byte >= 0xc2 && byte <= 0xdf
        ? 2
        : byte >= 0xe0 && byte <= 0xef
          ? 3
          : byte >= 0xf0 && byte <= 0xf4
            ? 4
            : 0;
    let valid = length > 0 && i + length <= sample.length;
    for (let k = 1; valid && k < length; k++) valid = (sample[i + k]! & 0xc0) === 0x80;
    if (valid) {
      sequences++;
      i += length - 1;
    } else stray++;
  }
  return sequences > stray;
}

function isValidUtf8(head: Buffer): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // The head may end inside a multi-byte character: streaming mode keeps it pending instead of failing.
  try {
    decoder.decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

export function decodeHead(head: Buffer, encoding: ImportEncoding, complete: boolean): string {
  const decoder = iconv.getDecoder(encoding, { stripBOM: true });
  const text = toStorableText(decoder.write(head) + (complete ? (decoder.end() ?? '') : ''));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function byteLength(text: string, chars: number, head: Buffer, encoding: ImportEncoding): number {
  if (chars >= text.length) return head.length;
  return Math.max(1, iconv.encode(text.slice(0, chars), encoding).length);
}

/** Control characters other than tab and line breaks mean a binary file (or a wrong encoding). */
function looksLikeText(text: string): boolean {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0xfffd || (c >= 0x7f && c < 0xa0))
      bad++;
  }
  return bad / sample.length < 0.01;
}

function readRows(
  text: string,
  delimiter: string,
  lineBreak: '\n' | '\r',
  complete: boolean,
  limit: number,
): { rows: string[][]; recordCount: number; consumedChars: number } {
  const splitter = new RecordSplitter({ delimiter, lineBreak });
  let records = splitter.push(text);
  if (complete) records = splitter.end(records);
  const rows = parseRecords(records.slice(0, limit), { delimiter })
    .filter((r) => !('error' in r))
    .map((r) => r.cells.map((cell) => cell.trim()))
    .filter((cells) => cells.some((cell) => cell !== ''));
  return { rows, recordCount: records.length, consumedChars: text.length - splitter.pendingChars };
}

/** The candidate whose rows agree most on a column count above one; ties go to more columns. */
export function detectDelimiter(text: string, lineBreak: '\n' | '\r', complete: boolean): ImportDelimiter {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  let best: { delimiter: ImportDelimiter; consistency: number; width: number } | null = null;
  for (const delimiter of IMPORT_DELIMITERS) {
    const { rows } = readRows(sample, delimiter, lineBreak, complete && sample === text, 30);
    if (rows.length === 0) continue;
    const counts = new Map<number, number>();
    for (const row of rows) counts.set(row.length, (counts.get(row.length) ?? 0) + 1);
    let width = 1;
    let frequency = 0;
    for (const [count, n] of counts) {
      if (n > frequency || (n === frequency && count > width)) {
        width = count;
        frequency = n;
      }
    }
    if (width < 2) continue;
    const consistency = frequency / rows.length;
    if (
      !best ||
      consistency > best.consistency + 0.05 ||
      (Math.abs(consistency - best.consistency) <= 0.05 && width > best.width)
    ) {
      best = { delimiter, consistency, width };
    }
  }
  return best?.delimiter ?? ',';
}

/**
 * Row 1 is a header when it names a known field, or when it holds no address while the rows below do.
 */
export function detectHeader(rows: string[][]): boolean {
  const first = rows[0] ?? [];
  if (first.some((cell) => fieldForHeader(cell) !== null)) return true;
  if (first.some(looksLikeEmail)) return false;
  return rows.slice(1).some((row) => row.some(looksLikeEmail));
}

function pickEmailColumn(headers: string[], emailCounts: number[], hasHeader: boolean): number {
  if (hasHeader) {
    const named = headers.findIndex((h, i) => fieldForHeader(h) === 'email' && emailCounts[i]! > 0);
    if (named !== -1) return named;
  }
  let best = -1;
  for (let i = 0; i < emailCounts.length; i++) {
    if (emailCounts[i]! > 0 && (best === -1 || emailCounts[i]! > emailCounts[best]!)) best = i;
  }
  return best;
}

/** A custom field name from a header: "Favourite Colour!" → favourite_colour. */
export function slugify(header: string, fallback: string): string {
  let slug = normaliseHeader(header).replace(/ /g, '_').slice(0, CUSTOM_FIELD_NAME_MAX).replace(/_+$/, '');
  if (slug && !/^[a-z]/.test(slug)) slug = `f_${slug}`.slice(0, CUSTOM_FIELD_NAME_MAX).replace(/_+$/, '');
  return slug || fallback;
}

function suggestMapping(input: {
  headers: string[];
  hasHeader: boolean;
  dataRows: string[][];
  emailColumn: number;
  target: ImportTarget;
}): ImportMapping {
  const { headers, hasHeader, dataRows, emailColumn, target } = input;
  const allowed = new Set<ImportField>(IMPORT_FIELDS_BY_TARGET[target]);
  const used = new Set<string>(['email']);
  const mapping: ImportMapping = {};
  const guesses: (ImportField | null)[] = headers.map((header, i) => {
    if (i === emailColumn) return 'email';
    if (hasHeader) return fieldForHeader(header);
    return guessFromValues(dataRows.map((row) => row[i]?.trim() ?? '').filter(Boolean));
  });
  const hasParts = guesses.includes('first_name') || guesses.includes('last_name');
  let customCount = 0;
  headers.forEach((header, i) => {
    let value: MappingValue = 'ignore';
    const guess = guesses[i];
    if (i === emailColumn) value = 'email';
    else if (
      guess &&
      guess !== 'email' &&
      allowed.has(guess) &&
      !used.has(guess) &&
      !(guess === 'full_name' && hasParts)
    ) {
      value = guess;
      used.add(guess);
    } else if (target === 'list' && hasHeader && guess !== 'email' && customCount < MAX_CUSTOM_FIELDS) {
      const base = slugify(header, `column_${i + 1}`);
      let name = base;
      for (let n = 2; used.has(`custom:${name}`) || RESERVED_FIELD_NAMES.includes(name); n++)
        name = `${base.slice(0, 45)}_${n}`;
      used.add(`custom:${name}`);
      customCount++;
      value = `custom:${name}`;
    }
    mapping[String(i)] = value;
  });
  return mapping;
}

function guessFromValues(values: string[]): ImportField | null {
  if (values.length === 0) return null;
  const share = (test: (v: string) => boolean) => values.filter(test).length / values.length;
  if (share((v) => /^(https?:\/\/|www\.)\S+$/i.test(v)) > 0.6) return 'website';
  if (share((v) => /^\+?[\d\s().-]{7,20}$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 7) > 0.6)
    return 'phone';
  return null;
}
