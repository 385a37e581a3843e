import { clipText } from '@server/lib/input-hygiene';
import { isRoleLocalPart } from '@shared/contacts';
import {
  CUSTOM_FIELD_PREFIX,
  IMPORT_REASONS,
  type ImportField,
  type ImportMapping,
  type ImportTarget,
} from '@shared/imports';
import { AddressMemory } from './address-memory';
import type { ParsedRecord } from './csv-records';
import {
  categorySlugOf,
  cleanCell,
  countryCodeOf,
  isDisposableEmailDomain,
  normaliseEmail,
  splitFullName,
} from './row-rules';

export type RejectCounter = 'invalid' | 'duplicate' | 'existing';

/** A row that passed the per-row rules, as it waits in the staging table. */
export interface StagedRow {
  line: number;
  email: string;
  normalized: string;
  domain: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  jobTitle: string | null;
  phone: string | null;
  website: string | null;
  address: string | null;
  city: string | null;
  countryCode: string | null;
  category: string | null;
  customFields: Record<string, string> | null;
  roleAddress: boolean;
  /** No value of the row needs escaping in COPY text (its record held no backslash, tab or line break). */
  plain: boolean;
  /** Suppression imports: one of the suppression reasons, and the file's own words as a note. */
  reason: string | null;
  note: string | null;
}

export type RowOutcome =
  | { kind: 'blank' }
  | { kind: 'rejected'; line: number; reason: string; values: string[]; counter: RejectCounter }
  | { kind: 'candidate'; row: StagedRow; values: string[] };

/** Report cells: at most this many per row and this long each. */
const REPORT_MAX_CELLS = 1000;
const REPORT_MAX_CHARS = 2000;

export function reportValues(cells: string[]): string[] {
  const values = cells.length > REPORT_MAX_CELLS ? cells.slice(0, REPORT_MAX_CELLS) : cells;
  return values.map((v) => {
    const clipped = clipText(v, REPORT_MAX_CHARS);
    return clipped.includes('\u0000') ? clipped.replaceAll('\u0000', '') : clipped;
  });
}

const SUPPRESSION_REASON_WORDS: [RegExp, string][] = [
  [/unsub|opt.?out|opted.?out|remove/i, 'unsubscribed'],
  [/bounce|undeliver|invalid/i, 'bounced'],
  [/complain|spam|abuse/i, 'complained'],
];

/**
 * The per-row rules of an import: email syntax and normalisation, duplicates within the file (the
 * first line of each address is remembered), disposable domains, role addresses, and what each target
 * requires. Checks that need the database or DNS (already present, MX) run per batch afterwards.
 */
export class RowProcessor {
  /** Normalised address → the line it first appeared on. */
  readonly seen = new AddressMemory();
  private readonly emailIndex: number;
  private readonly fields: Partial<Record<ImportField, number>> = {};
  private readonly custom: [string, number][] = [];
  /** Every mapped column: a character the file's encoding could not read (U+FFFD) there rejects the row. */
  private readonly mapped: number[] = [];

  constructor(private readonly options: { target: ImportTarget; mapping: ImportMapping }) {
    let emailIndex = -1;
    for (const [key, value] of Object.entries(options.mapping)) {
      const index = Number(key);
      if (value === 'ignore') continue;
      this.mapped.push(index);
      if (value.startsWith(CUSTOM_FIELD_PREFIX))
        this.custom.push([value.slice(CUSTOM_FIELD_PREFIX.length), index]);
      else if (value === 'email') emailIndex = index;
      else this.fields[value as ImportField] = index;
    }
    if (emailIndex === -1) throw new Error('mapping has no email column');
    this.emailIndex = emailIndex;
  }

  /** On a resumed import the rows already done run again only to rebuild the duplicate memory. */
  replay(record: ParsedRecord): void {
    this.process(record);
  }

  private rejected(record: ParsedRecord, reason: string, counter: RejectCounter = 'invalid'): RowOutcome {
    return { kind: 'rejected', line: record.line, reason, values: reportValues(record.cells), counter };
  }

  private cell(cells: string[], field: ImportField): string | null {
    const index = this.fields[field];
    return index === undefined ? null : cleanCell(cells[index]);
  }

  /** Remembered only once the row passes its own rules: a later copy of a rejected row gets its chance. */
  private accepted(row: StagedRow, cells: string[]): RowOutcome {
    this.seen.set(row.normalized, row.line);
    return { kind: 'candidate', row, values: cells };
  }

  process(record: ParsedRecord): RowOutcome {
    const { line, cells } = record;
    if ('error' in record) {
      return this.rejected(
        record,
        record.error === 'too_long' ? IMPORT_REASONS.tooLong : IMPORT_REASONS.malformed,
      );
    }
    if (isBlank(cells)) return BLANK;
    // Mixed encodings (a Windows-1252 line in a UTF-8 file): never store garbled text.
    for (const index of this.mapped) {
      if (cells[index]?.includes('\uFFFD')) return this.rejected(record, IMPORT_REASONS.unreadable);
    }
    const emailCell = cells[this.emailIndex] ?? '';
    const email = normaliseEmail(emailCell);
    if (!email) {
      return this.rejected(
        record,
        emailCell.trim() === '' ? IMPORT_REASONS.missingEmail : IMPORT_REASONS.invalidEmail,
      );
    }
    const first = this.seen.get(email.normalized);
    if (first !== undefined) return this.rejected(record, IMPORT_REASONS.duplicate(first), 'duplicate');

    const { target } = this.options;
    const row: StagedRow = {
      line,
      email: email.email,
      normalized: email.normalized,
      domain: email.domain,
      firstName: null,
      lastName: null,
      company: null,
      jobTitle: null,
      phone: null,
      website: null,
      address: null,
      city: null,
      countryCode: null,
      category: null,
      customFields: null,
      roleAddress: false,
      plain: record.plain === true,
      reason: null,
      note: null,
    };

    if (target === 'suppression') {
      const words = this.cell(cells, 'reason');
      row.reason = 'manual';
      if (words) {
        row.note = words;
        for (const [pattern, reason] of SUPPRESSION_REASON_WORDS) {
          if (pattern.test(words)) {
            row.reason = reason;
            break;
          }
        }
      }
      return this.accepted(row, cells);
    }

    if (isDisposableEmailDomain(email.domain)) return this.rejected(record, IMPORT_REASONS.disposable);
    row.firstName = this.cell(cells, 'first_name');
    row.lastName = this.cell(cells, 'last_name');
    if (this.fields.full_name !== undefined && !row.firstName && !row.lastName) {
      const full = this.cell(cells, 'full_name');
      if (full) {
        const split = splitFullName(full);
        row.firstName = split.first;
        row.lastName = split.last;
      }
    }
    row.company = this.cell(cells, 'company');
    row.jobTitle = this.cell(cells, 'job_title');
    row.phone = this.cell(cells, 'phone');
    row.website = this.cell(cells, 'website');
    row.city = this.cell(cells, 'city');
    const country = this.cell(cells, 'country');
    row.countryCode = country ? countryCodeOf(country) : null;

    if (target === 'directory') {
      row.address = this.cell(cells, 'address');
      if (!row.company) return this.rejected(record, IMPORT_REASONS.missingCompany);
      if (!row.countryCode) return this.rejected(record, IMPORT_REASONS.unknownCountry);
      const category = this.cell(cells, 'category');
      row.category = category ? categorySlugOf(category) : null;
      if (!row.category) return this.rejected(record, IMPORT_REASONS.unknownCategory);
      return this.accepted(row, cells);
    }

    row.roleAddress = isRoleLocalPart(email.normalized.slice(0, email.normalized.lastIndexOf('@')));
    if (this.custom.length > 0) {
      let custom: Record<string, string> | null = null;
      for (const [name, index] of this.custom) {
        const value = cleanCell(cells[index]);
        if (value !== null) {
          custom ??= {};
          custom[name] = value;
        }
      }
      row.customFields = custom;
    }
    return this.accepted(row, cells);
  }
}

const BLANK: RowOutcome = { kind: 'blank' };

function isBlank(cells: string[]): boolean {
  for (const cell of cells) if (cell.trim() !== '') return false;
  return true;
}
