import { parse } from 'csv-parse/sync';

/** A row longer than this is rejected on its own line instead of stopping the whole import. */
export const MAX_RECORD_CHARS = 1024 * 1024;
/** A quoted cell may span lines, but not this many: past it the opening quote is taken to be a stray. */
export const MAX_LINES_PER_RECORD = 100;

export type SplitRecord =
  | { line: number; text: string }
  | { line: number; error: 'too_long' | 'malformed'; text: string };

const QUOTE = 34;
const EMBEDDED_EMAIL = /[^\s@,;|\t"<>]+@[^\s@,;|\t"<>]+\.[A-Za-z]{2,}/;

/**
 * Cuts decoded CSV text into records (one row each, quoted line breaks kept inside) before csv-parse
 * sees them. csv-parse gives up on the rest of a file after an over-long record or an unclosed quote;
 * here such a row becomes one rejected line and reading goes on with the next line.
 * Quote rules follow csv-parse with `relax_quotes`: a quote opens a quoted cell only at the start of a
 * cell; inside, `""` is a quote and a lone `"` closes it.
 */
export class RecordSplitter {
  private buffer = '';
  /** Where the current record starts in `buffer`, and its line number. */
  private recordStart = 0;
  private recordLine = 1;
  /** Scan position and state inside the current record. */
  private pos = 0;
  private inQuotes = false;
  private linesInRecord = 1;
  /** True while skipping the rest of an over-long physical line. */
  private skipping = false;
  private readonly delimiterCode: number;
  private readonly newline: string;
  private readonly newlineCode: number;
  private expectedWidth: number | undefined;
  /** Index of the next quote in `buffer` (-1: none left; -2: not searched since the buffer changed). */
  private nextQuote = -2;

  /** Blank lines come out as empty records (so they can be counted) instead of being dropped. */
  private readonly keepBlankLines: boolean;

  constructor(options: { delimiter: string; lineBreak?: '\n' | '\r'; keepBlankLines?: boolean }) {
    this.keepBlankLines = options.keepBlankLines ?? false;
    this.delimiterCode = options.delimiter.charCodeAt(0);
    this.newline = options.lineBreak ?? '\n';
    this.newlineCode = this.newline.charCodeAt(0);
  }

  /** Characters received but not yet part of a finished record. */
  get pendingChars(): number {
    return this.buffer.length - this.recordStart;
  }

  push(chunk: string, out: SplitRecord[] = []): SplitRecord[] {
    this.buffer =
      this.buffer.length === this.recordStart ? chunk : this.buffer.slice(this.recordStart) + chunk;
    this.pos -= this.recordStart;
    this.recordStart = 0;
    this.nextQuote = -2;
    this.scan(out, false);
    return out;
  }

  end(out: SplitRecord[] = []): SplitRecord[] {
    this.scan(out, true);
    return out;
  }

  private scan(out: SplitRecord[], atEnd: boolean): void {
    const buf = this.buffer;
    for (;;) {
      if (this.skipping) {
        const nl = buf.indexOf(this.newline, this.pos);
        if (nl === -1) {
          // Drop what was skipped so a 10 MB line never sits in memory.
          this.pos = buf.length;
          this.recordStart = buf.length;
          return;
        }
        this.skipping = false;
        this.startRecordAt(nl + 1, this.linesInRecord);
        continue;
      }
      if (this.inQuotes) {
        const quote = buf.indexOf('"', this.pos);
        const limit = quote === -1 ? buf.length : quote;
        this.countLines(buf, this.pos, limit);
        if (this.linesInRecord > MAX_LINES_PER_RECORD || limit - this.recordStart > MAX_RECORD_CHARS) {
          this.strayQuote(out);
          continue;
        }
        if (quote === -1 || quote + 1 >= buf.length) {
          if (!atEnd) {
            this.pos = limit;
            return;
          }
          if (quote === -1) {
            this.strayQuote(out);
            continue;
          }
        }
        if (buf.charCodeAt(quote + 1) === QUOTE) {
          this.pos = quote + 2;
          continue;
        }
        this.inQuotes = false;
        this.pos = quote + 1;
        continue;
      }
      // Outside quotes only the next line break and quotes at the start of a cell matter.
      const nl = buf.indexOf(this.newline, this.pos);
      let quote = this.quoteFrom(buf, this.pos);
      while (quote !== -1 && (nl === -1 || quote < nl) && !this.startsCell(buf, quote)) {
        quote = this.quoteFrom(buf, quote + 1);
      }
      if (quote !== -1 && (nl === -1 || quote < nl)) {
        this.inQuotes = true;
        this.pos = quote + 1;
        continue;
      }
      const end = nl === -1 ? buf.length : nl;
      if (end - this.recordStart > MAX_RECORD_CHARS) {
        out.push({ line: this.recordLine, error: 'too_long', text: '' });
        if (nl === -1) {
          this.skipping = true;
          this.pos = buf.length;
          this.recordStart = buf.length;
          return;
        }
        this.startRecordAt(nl + 1, this.linesInRecord);
        continue;
      }
      if (nl === -1) {
        if (atEnd) {
          this.emit(out, buf.slice(this.recordStart), true);
          this.recordStart = buf.length;
          this.pos = buf.length;
        } else {
          this.pos = buf.length;
        }
        return;
      }
      if (this.linesInRecord > 1 && this.swallowedRow(buf, this.recordStart, nl)) {
        this.strayQuote(out);
        continue;
      }
      this.emit(out, buf.slice(this.recordStart, nl));
      this.startRecordAt(nl + 1, this.linesInRecord);
    }
  }

  /**
   * A quoted cell may hold line breaks (addresses, notes), but when a line inside it looks like a whole
   * row of its own (as many delimiters as a row has, and an address), the opening quote was a stray one.
   */
  private swallowedRow(buf: string, start: number, end: number): boolean {
    const width = this.expectedWidth;
    if (!width || width < 2) return false;
    let nl = buf.indexOf(this.newline, start);
    while (nl !== -1 && nl < end) {
      const next = buf.indexOf(this.newline, nl + 1);
      const lineEnd = next === -1 || next > end ? end : next;
      const line = buf.slice(nl + 1, lineEnd);
      let delimiters = 0;
      for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) === this.delimiterCode) delimiters++;
      if (delimiters >= width - 1 && EMBEDDED_EMAIL.test(line)) return true;
      nl = next;
    }
    return false;
  }

  /**
   * The next quote at or after `from`, remembered: a file without quotes would otherwise be searched
   * to the end of the buffer once per row.
   */
  private quoteFrom(buf: string, from: number): number {
    if (this.nextQuote === -1) return -1;
    if (this.nextQuote >= from) return this.nextQuote;
    this.nextQuote = buf.indexOf('"', from);
    return this.nextQuote;
  }

  private startsCell(buf: string, index: number): boolean {
    if (index === this.recordStart) return true;
    const previous = buf.charCodeAt(index - 1);
    return previous === this.delimiterCode || previous === this.newlineCode;
  }

  private countLines(buf: string, from: number, to: number): void {
    let nl = buf.indexOf(this.newline, from);
    while (nl !== -1 && nl < to) {
      this.linesInRecord++;
      nl = buf.indexOf(this.newline, nl + 1);
    }
  }

  /** The record's opening quote never closed (in reason): reject its first line, re-read from the next. */
  private strayQuote(out: SplitRecord[]): void {
    const buf = this.buffer;
    const nl = buf.indexOf(this.newline, this.recordStart);
    const firstLineEnd = nl === -1 ? buf.length : nl;
    out.push({
      line: this.recordLine,
      error: firstLineEnd - this.recordStart > MAX_RECORD_CHARS ? 'too_long' : 'malformed',
      text: buf.slice(this.recordStart, Math.min(firstLineEnd, this.recordStart + MAX_RECORD_CHARS)),
    });
    this.inQuotes = false;
    this.linesInRecord = 1;
    if (nl === -1) {
      // The rest of this physical line may still be coming: skip it up to its line break.
      this.skipping = true;
      this.recordStart = buf.length;
      this.pos = buf.length;
      return;
    }
    this.recordLine += 1;
    this.linesInRecord = 1;
    this.recordStart = nl + 1;
    this.pos = nl + 1;
  }

  private startRecordAt(index: number, linesConsumed: number): void {
    this.recordLine += linesConsumed;
    this.linesInRecord = 1;
    this.recordStart = index;
    this.pos = index;
    this.inQuotes = false;
  }

  private emit(out: SplitRecord[], raw: string, last = false): void {
    const text = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    // Blank lines are not rows (the text after the file's last line break is not even a line).
    if (text.length === 0 || (text.length < 200 && text.trim() === '')) {
      if (this.keepBlankLines && !last) out.push({ line: this.recordLine, text: '' });
      return;
    }
    if (this.expectedWidth === undefined) {
      // The first row (usually the header) tells how many cells a row has.
      let delimiters = 0;
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === this.delimiterCode) delimiters++;
      this.expectedWidth = delimiters + 1;
    }
    out.push({ line: this.recordLine, text });
  }
}

export interface CsvParseOptions {
  delimiter: string;
}

function parseOptions(options: CsvParseOptions) {
  return {
    delimiter: options.delimiter,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: false,
    record_delimiter: '\n',
    max_record_size: MAX_RECORD_CHARS * 4,
  } as const;
}

export type ParsedRecord =
  /** `plain`: the record's text holds no backslash, tab or line break, so neither does any cell. */
  { line: number; cells: string[]; plain?: boolean } | { line: number; error: string; cells: string[] };

/** What COPY text format must escape (see copyLine). */
const COPY_SPECIAL = /[\\\t\n\r]/;

/**
 * The cells of a record whose quotes are all well placed: each quoted cell opens at the start of the cell
 * and closes at its end, with `""` for a quote inside. That is what csv-parse returns for such a record,
 * at a tenth of the cost (csv-parse took ~20 µs a quoted row). Null for anything else (a quote inside an
 * unquoted cell, text after a closing quote, a quote that never closes), which csv-parse reads instead.
 */
export function splitQuotedRecord(text: string, delimiter: string): string[] | null {
  const cells: string[] = [];
  const end = text.length;
  let pos = 0;
  for (;;) {
    if (text.charCodeAt(pos) === QUOTE) {
      let value = '';
      let from = pos + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        if (close === -1) return null;
        if (text.charCodeAt(close + 1) === QUOTE) {
          value += text.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        value += text.slice(from, close);
        pos = close + 1;
        break;
      }
      cells.push(value);
      if (pos === end) return cells;
      if (!text.startsWith(delimiter, pos)) return null;
      pos += delimiter.length;
      continue;
    }
    const next = text.indexOf(delimiter, pos);
    const cellEnd = next === -1 ? end : next;
    const quote = text.indexOf('"', pos);
    if (quote !== -1 && quote < cellEnd) return null;
    cells.push(text.slice(pos, cellEnd));
    if (next === -1) return cells;
    pos = next + delimiter.length;
  }
}

/**
 * Parses a batch of split records. A record without any quote is its cells split at the delimiter, and
 * one whose quotes are all well placed is read by splitQuotedRecord (what csv-parse returns for them, at
 * a fraction of the cost); the other records with quotes go through csv-parse in one call, and record by
 * record when that call does not parse cleanly, so one bad row costs only itself.
 */
export function parseRecords(records: SplitRecord[], options: CsvParseOptions): ParsedRecord[] {
  const result: ParsedRecord[] = new Array(records.length);
  const quoted: number[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if ('error' in record) {
      result[i] = { line: record.line, error: record.error, cells: record.text ? [record.text] : [] };
    } else if (record.text.indexOf('"') === -1) {
      const plain = !COPY_SPECIAL.test(record.text);
      result[i] = { line: record.line, cells: record.text.split(options.delimiter), plain };
    } else {
      const cells = splitQuotedRecord(record.text, options.delimiter);
      if (cells) result[i] = { line: record.line, cells, plain: !COPY_SPECIAL.test(record.text) };
      else quoted.push(i);
    }
  }
  if (quoted.length === 0) return result;
  const opts = parseOptions(options);
  let parsed: string[][] | null = null;
  try {
    const rows = parse(
      quoted.map((i) => (records[i] as { text: string }).text).join('\n'),
      opts,
    ) as string[][];
    if (rows.length === quoted.length) parsed = rows;
  } catch {
    parsed = null;
  }
  quoted.forEach((index, n) => {
    const record = records[index] as { line: number; text: string };
    if (parsed) {
      result[index] = { line: record.line, cells: parsed[n]! };
      return;
    }
    try {
      const rows = parse(record.text, opts) as string[][];
      result[index] =
        rows.length === 1
          ? { line: record.line, cells: rows[0]! }
          : { line: record.line, error: 'malformed', cells: [record.text] };
    } catch {
      result[index] = { line: record.line, error: 'malformed', cells: [record.text] };
    }
  });
  return result;
}
