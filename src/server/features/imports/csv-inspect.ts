import { AppError } from '@server/lib/errors';
import { toStorableText } from '@server/lib/input-hygiene';
import { CUSTOM_FIELD_NAME_MAX } from '@shared/contacts';
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
} from '@shared/imports';
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { parseRecords, RecordSplitter } from './csv-records';
import { fieldForHeader, isBookkeepingHeader, normaliseHeader } from './header-synonyms';

/** How much of the file's head is read to detect its shape. */
export const INSPECT_BYTES = 256 * 1024;
export const MAX_COLUMNS = 1000;
const PREVIEW_ROWS = 10;
const SAMPLE_VALUES = 5;
const SCAN_ROWS = 200;
/** The header row is looked for among this many first rows (LinkedIn writes notes above it). */
const HEADER_SCAN_ROWS = 20;
/** First lines offered for choosing the header line. */
const FIRST_LINES = 12;

export interface InspectOverrides {
  encoding?: ImportEncoding;
  delimiter?: ImportDelimiter;
  hasHeader?: boolean;
  /** The 1-based line holding the column names. */
  headerLine?: number;
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
  /** The list's own custom fields: suggestions stay within its 20 (reusing these names is free). */
  existingCustomFields?: readonly string[];
}): InspectResult {
  const { head, complete, fileSize, target, overrides = {}, existingCustomFields = [] } = input;
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
  const scanned = readRows(text, delimiter, lineBreak, complete, SCAN_ROWS);
  const { recordCount, consumedChars } = scanned;
  const rows = scanned.rows.map((row) => row.cells);
  if (rows.length === 0) throw badFile(IMPORT_MESSAGES.empty);

  const widest = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (widest > MAX_COLUMNS) throw badFile(IMPORT_MESSAGES.tooManyColumns(widest, MAX_COLUMNS));

  let headerIndex: number;
  if (overrides.headerLine !== undefined) {
    headerIndex = scanned.rows.findIndex((row) => row.line === overrides.headerLine);
    if (headerIndex === -1 || headerIndex >= HEADER_SCAN_ROWS)
      throw badFile(IMPORT_MESSAGES.headerLineMissing(overrides.headerLine));
  } else if (overrides.hasHeader === false) headerIndex = -1;
  else {
    headerIndex = findHeaderRow(rows);
    if (overrides.hasHeader === true && headerIndex === -1) headerIndex = 0;
  }
  const hasHeader = headerIndex !== -1;
  const headerRow = hasHeader ? rows[headerIndex]! : [];
  const dataRows = rows.slice(headerIndex + 1);
  if (dataRows.length === 0) {
    if (complete && hasHeader) throw badFile(IMPORT_MESSAGES.headerOnly);
    throw badFile(IMPORT_MESSAGES.empty);
  }
  // Notes above the header do not make columns.
  const width = [headerRow, ...dataRows].reduce((max, row) => Math.max(max, row.length), 0);
  const headerLine = hasHeader ? scanned.rows[headerIndex]!.line : null;
  const dataStart = headerLine ?? 0;
  const lastDataLine = scanned.rows[scanned.rows.length - 1]!.line;
  // Blank lines between the data rows (not the notes above the header, nor the file's trailing ones).
  const emptyRows = scanned.blankLines.filter((line) => line > dataStart && line < lastDataLine).length;
  const firstLines = scanned.rows
    .slice(0, FIRST_LINES)
    .map((row) => ({ line: row.line, text: clip(row.cells.join(', '), 160) }));

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
  const suggestedMapping = suggestMapping({
    headers,
    hasHeader,
    dataRows,
    emailColumn,
    target,
    existingCustomFields,
  });
  const estimatedRows =
    complete && recordCount <= SCAN_ROWS
      ? dataRows.length
      : Math.max(
          dataRows.length,
          Math.round((fileSize * recordCount) / byteLength(text, consumedChars, head, encoding)) -
            (headerIndex + 1),
        );
  return {
    encoding,
    delimiter,
    hasHeader,
    headerLine,
    firstLines,
    emptyRows,
    lineBreak,
    columns,
    previewRows,
    suggestedMapping,
    estimatedRows,
  };
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

interface HeadRow {
  /** 1-based line where the row starts. */
  line: number;
  cells: string[];
}

function readRows(
  text: string,
  delimiter: string,
  lineBreak: '\n' | '\r',
  complete: boolean,
  limit: number,
): { rows: HeadRow[]; blankLines: number[]; recordCount: number; consumedChars: number } {
  const splitter = new RecordSplitter({ delimiter, lineBreak, keepBlankLines: true });
  let records = splitter.push(text);
  if (complete) records = splitter.end(records);
  const rows: HeadRow[] = [];
  const blankLines: number[] = [];
  let recordCount = 0;
  let taken = 0;
  for (const record of parseRecords(records, { delimiter })) {
    const blank = !('error' in record) && record.cells.every((cell) => cell.trim() === '');
    if (!blank) recordCount++;
    if (taken >= limit) continue;
    if (blank) {
      blankLines.push(record.line);
      continue;
    }
    taken++;
    if ('error' in record) continue;
    rows.push({ line: record.line, cells: record.cells.map((cell) => cell.trim()) });
  }
  return { rows, blankLines, recordCount, consumedChars: text.length - splitter.pendingChars };
}

/** The candidate whose rows agree most on a column count above one; ties go to more columns. */
export function detectDelimiter(text: string, lineBreak: '\n' | '\r', complete: boolean): ImportDelimiter {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  let best: { delimiter: ImportDelimiter; consistency: number; width: number } | null = null;
  for (const delimiter of IMPORT_DELIMITERS) {
    const rows = readRows(sample, delimiter, lineBreak, complete && sample === text, 30).rows.map(
      (row) => row.cells,
    );
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
 * Which of the first rows holds the column names (-1: none). Exports do not always start with it:
 * LinkedIn's Connections.csv has notes above. The header is the row, without an address, that names the
 * most known fields; failing that, the first row without an address above rows that hold some, skipping
 * one-cell lines (notes) in a file whose rows have several cells.
 */
export function findHeaderRow(rows: string[][]): number {
  const scan = rows.slice(0, HEADER_SCAN_ROWS);
  let best = -1;
  let bestNames = 0;
  scan.forEach((cells, i) => {
    if (cells.some(looksLikeEmail)) return;
    const names = cells.filter((cell) => fieldForHeader(cell) !== null).length;
    if (names > bestNames) {
      best = i;
      bestNames = names;
    }
  });
  if (best !== -1) return best;
  const width = modalWidth(rows);
  for (let i = 0; i < scan.length; i++) {
    const cells = scan[i]!;
    if (cells.some(looksLikeEmail)) return -1;
    if (width >= 2 && cells.filter((cell) => cell !== '').length < 2) continue;
    return rows.slice(i + 1).some((row) => row.some(looksLikeEmail)) ? i : -1;
  }
  return -1;
}

function modalWidth(rows: string[][]): number {
  const counts = new Map<number, number>();
  let width = 0;
  let frequency = 0;
  for (const row of rows) {
    const n = (counts.get(row.length) ?? 0) + 1;
    counts.set(row.length, n);
    if (n > frequency) {
      width = row.length;
      frequency = n;
    }
  }
  return width;
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

/** Values exports write into empty cells (Outlook's "0/0/00" birthday, "Unspecified" gender). */
const PLACEHOLDER_VALUES = new Set(['0/0/00', '0/0/0000', 'unspecified']);

function hasValue(value: string | undefined): boolean {
  const v = value?.trim() ?? '';
  return v !== '' && !PLACEHOLDER_VALUES.has(v.toLowerCase());
}

function suggestMapping(input: {
  headers: string[];
  hasHeader: boolean;
  dataRows: string[][];
  emailColumn: number;
  target: ImportTarget;
  existingCustomFields: readonly string[];
}): ImportMapping {
  const { headers, hasHeader, dataRows, emailColumn, target, existingCustomFields } = input;
  const allowed = new Set<ImportField>(IMPORT_FIELDS_BY_TARGET[target]);
  const filled = headers.map((_, i) => dataRows.filter((row) => hasValue(row[i])).length);
  const guesses: (ImportField | null)[] = headers.map((header, i) => {
    if (i === emailColumn) return 'email';
    if (hasHeader) return fieldForHeader(header);
    return guessFromValues(dataRows.map((row) => row[i]?.trim() ?? '').filter(Boolean));
  });
  // Several columns named for one field: the one holding the most values takes it (Outlook's "Title",
  // a salutation left empty, beside its "Job Title"); ties go to the first.
  const owner = new Map<ImportField, number>();
  guesses.forEach((guess, i) => {
    if (!guess || guess === 'email' || !allowed.has(guess)) return;
    const current = owner.get(guess);
    if (current === undefined || filled[i]! > filled[current]!) owner.set(guess, i);
  });
  const hasParts = owner.has('first_name') || owner.has('last_name');
  const existing = new Set(existingCustomFields);
  // The list holds at most 20 custom fields, its own included; reusing one of its names costs nothing.
  let room = Math.max(0, MAX_CUSTOM_FIELDS - existing.size);
  const used = new Set<string>();
  const mapping: ImportMapping = {};
  headers.forEach((header, i) => {
    let value: MappingValue = 'ignore';
    const guess = guesses[i];
    if (i === emailColumn) value = 'email';
    else if (guess && guess !== 'email' && owner.get(guess) === i) {
      // A full name beside first and last name columns says nothing more.
      if (!(guess === 'full_name' && hasParts)) value = guess;
    } else if (
      target === 'list' &&
      hasHeader &&
      guess !== 'email' &&
      guess !== 'full_name' &&
      filled[i]! > 0 &&
      !isBookkeepingHeader(header)
    ) {
      const base = slugify(header, `column_${i + 1}`);
      let name = base;
      for (let n = 2; used.has(name) || RESERVED_FIELD_NAMES.includes(name); n++)
        name = `${base.slice(0, 45)}_${n}`;
      const free = existing.has(name);
      if (free || room > 0) {
        if (!free) room--;
        used.add(name);
        value = `custom:${name}`;
      }
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
