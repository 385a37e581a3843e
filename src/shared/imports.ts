import { z } from 'zod';
import { CUSTOM_FIELD_NAME, CUSTOM_FIELDS_MAX, LIST_CONTACT_FIELDS } from './contacts';

// CSV imports (issue 3 items 5–7): upload → inspect → map → run as a job → report.
// docs/api-imports.md describes the endpoints; the web wizard reuses these schemas.

export const IMPORT_TARGETS = ['list', 'suppression', 'directory'] as const;
export type ImportTarget = (typeof IMPORT_TARGETS)[number];

export const IMPORT_STATUSES = ['uploaded', 'queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** Statuses after which nothing changes any more. */
export const FINISHED_IMPORT_STATUSES: readonly ImportStatus[] = ['completed', 'failed', 'cancelled'];

export const IMPORT_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

export const IMPORT_DELIMITERS = [',', ';', '\t', '|'] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];

/** Fields a column can be mapped to (besides `custom:<name>` and `ignore`). */
export const IMPORT_FIELDS = [
  'email',
  'first_name',
  'last_name',
  /** "Ada Obi" split into first and last name. */
  'full_name',
  'company',
  'job_title',
  'phone',
  'website',
  'address',
  'city',
  /** ISO code (NG) or English name (Nigeria). */
  'country',
  /** Directory imports: a business category of the directory's taxonomy. */
  'category',
  /** Suppression imports: why the address is suppressed (default "manual"). */
  'reason',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Which fields each target accepts. Lists also accept `custom:<name>`. */
export const IMPORT_FIELDS_BY_TARGET: Record<ImportTarget, readonly ImportField[]> = {
  list: [
    'email',
    'first_name',
    'last_name',
    'full_name',
    'company',
    'job_title',
    'phone',
    'website',
    'city',
    'country',
  ],
  directory: [
    'email',
    'first_name',
    'last_name',
    'full_name',
    'company',
    'job_title',
    'phone',
    'website',
    'address',
    'city',
    'country',
    'category',
  ],
  suppression: ['email', 'reason'],
};

export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  full_name: 'Full name (split into first and last)',
  company: 'Company',
  job_title: 'Job title',
  phone: 'Phone',
  website: 'Website',
  address: 'Address',
  city: 'City',
  country: 'Country',
  category: 'Category',
  reason: 'Suppression reason',
};

export const CUSTOM_FIELD_PREFIX = 'custom:';
/** Custom field names are slugs: lower-case letters, digits and underscores, starting with a letter (the list rule). */
export { CUSTOM_FIELD_NAME };
/** A list holds at most this many custom fields (its own plus the import's). */
export const MAX_CUSTOM_FIELDS = CUSTOM_FIELDS_MAX;
/** Custom field names may not reuse the built-in field names (they are merge tags too). */
export const RESERVED_FIELD_NAMES: readonly string[] = LIST_CONTACT_FIELDS;

/** A mapping target: a field, `custom:<slug>` (lists only) or `ignore`. */
export const mappingValueSchema = z.union([
  z.enum(IMPORT_FIELDS),
  z.literal('ignore'),
  z
    .string()
    .regex(
      new RegExp(`^custom:${CUSTOM_FIELD_NAME.source.slice(1)}`),
      'Custom field names use lower-case letters, digits and underscores, starting with a letter',
    ),
]);
export type MappingValue = z.infer<typeof mappingValueSchema>;

/** Column index (as a string, JSON object key) → what it holds. Unmapped columns are ignored. */
export const importMappingSchema = z.record(
  z.string().regex(/^\d{1,5}$/, 'Column keys are column indexes'),
  mappingValueSchema,
);
export type ImportMapping = z.infer<typeof importMappingSchema>;

// Every message the user can see, so the web shows the same texts and tests assert them.
export const IMPORT_MESSAGES = {
  noFile: 'Choose a CSV file to upload.',
  oneFile: 'Upload one file at a time.',
  unreadableUpload: 'This upload could not be read. Please choose the file again.',
  tooLarge: (limit: string) => `This file is larger than ${limit}. Split it or contact support.`,
  empty: 'This file is empty.',
  headerOnly: 'This file has a header row but no contacts.',
  notCsv: 'This does not look like a CSV file.',
  noEmailColumn: 'We could not find a column with email addresses in this file.',
  emailColumnEmpty: (header: string) => `The "${header}" column holds no email addresses.`,
  spreadsheet: 'This is an Excel file. Save it as CSV (File › Save As › CSV UTF-8) and upload that.',
  tooManyColumns: (count: number, max: number) =>
    `This file has ${count.toLocaleString('en')} columns; at most ${max.toLocaleString('en')} can be imported.`,
  badTarget: 'Choose where to import: a list, the suppression list or the directory.',
  listRequired: 'Choose a list or give the new list a name.',
  directoryForbidden: 'Only a super admin can import into the directory.',
  mappingNoEmail: 'Choose the column that holds the email addresses.',
  mappingManyEmails: 'Only one column can hold the email address.',
  mappingDuplicateField: (label: string) => `Only one column can be mapped to ${label}.`,
  mappingFullAndParts: 'Map either a full name column or first and last name columns, not both.',
  mappingUnknownColumn: (index: string) => `Column ${index} does not exist in this file.`,
  mappingFieldNotAllowed: (label: string) => `${label} cannot be imported here.`,
  mappingCustomNotAllowed: 'Custom fields can only be imported into a contact list.',
  mappingTooManyCustom: `A list can have at most ${CUSTOM_FIELDS_MAX} custom fields.`,
  mappingReservedCustom: (name: string) =>
    `"${name}" is a built-in field: map the column to it or choose another name.`,
  mappingDirectoryRequired:
    'Directory contacts need a company, a country and a category: map a column to each.',
  notStartable: 'This import has already been started.',
  notCancellable: 'This import has already finished.',
  notFound: 'Import not found',
  headerLineMissing: (line: number) => `Line ${line} is not among the first lines of this file.`,
  overLimit: (rows: number, available: number) =>
    `This file holds about ${rows.toLocaleString('en')} contacts; your plan lets you add ${available.toLocaleString('en')} more.`,
  importFirst: (available: number) => `Import the first ${available.toLocaleString('en')}`,
  fileGone: 'The uploaded file is no longer available. Please upload it again.',
} as const;

/** Why a row was not imported: the `reason` column of the report. */
export const IMPORT_REASONS = {
  missingEmail: 'Missing email address',
  invalidEmail: 'Invalid email address',
  disposable: 'Disposable email domain',
  noMx: 'Email domain does not receive mail',
  duplicate: (line: number) => `Duplicate of line ${line}`,
  existing: 'Already in this list',
  existingDirectory: 'Already in the directory',
  erased: "Erased at its owner's request: it cannot be added again",
  unknownCategory: 'Unknown category',
  unknownCountry: 'Unknown country',
  missingCompany: 'Missing company name',
  tooLong: 'Row is too long',
  malformed: 'Row could not be read (unbalanced quotes?)',
  tooManyColumns: 'Row has too many columns',
  unreadable: "Row has characters the file's encoding cannot read (mixed encodings?)",
  overLimit: "Past your plan's contact limit (you chose to import the first rows)",
} as const;

export const importColumnSchema = z.object({
  index: z.number(),
  /** The header cell, or "Column N" when the file has no header row. */
  header: z.string(),
  /** Up to 5 non-empty values from the first rows. */
  sample: z.array(z.string()),
});
export type ImportColumn = z.infer<typeof importColumnSchema>;

/** What the server learnt from the head of the file; the wizard shows it on the mapping step. */
export const importInspectionSchema = z.object({
  encoding: z.enum(IMPORT_ENCODINGS),
  delimiter: z.enum(IMPORT_DELIMITERS),
  hasHeader: z.boolean(),
  columns: z.array(importColumnSchema),
  /** The first 10 data rows (after the header row when there is one), cells as text. */
  previewRows: z.array(z.array(z.string())),
  suggestedMapping: importMappingSchema,
  /** Rows in the file, estimated from its size and the first rows (exact for small files). */
  estimatedRows: z.number(),
  /**
   * 1-based line of the header row: not always line 1 (LinkedIn puts notes above it). Null without a
   * header row. Absent on inspections stored before it existed (line 1 when hasHeader).
   */
  headerLine: z.number().nullable().optional(),
  /** The file's first lines, for choosing the header line. */
  firstLines: z.array(z.object({ line: z.number(), text: z.string() })).optional(),
  /** Rows without a single value among the rows read (all of them for small files). */
  emptyRows: z.number().optional(),
});
export type ImportInspection = z.infer<typeof importInspectionSchema>;

export const importSummarySchema = z.object({
  id: z.string(),
  target: z.enum(IMPORT_TARGETS),
  status: z.enum(IMPORT_STATUSES),
  fileName: z.string(),
  sizeBytes: z.number(),
  listId: z.string().nullable(),
  listName: z.string().nullable(),
  encoding: z.enum(IMPORT_ENCODINGS),
  delimiter: z.enum(IMPORT_DELIMITERS),
  hasHeader: z.boolean(),
  /** Exact once the whole file has been read; until then null (use estimatedRows). */
  totalRows: z.number().nullable(),
  estimatedRows: z.number(),
  processedRows: z.number(),
  /** 0–100. */
  percent: z.number(),
  /** Rows added (list: new contacts; suppression: new suppressions; directory: new contacts). */
  importedRows: z.number(),
  /** Same email as an earlier row of this file (compared case-insensitively). */
  duplicateRows: z.number(),
  /** Already in the list / directory / suppression list before this import. */
  existingRows: z.number(),
  /** Rejected: bad or missing email, disposable domain, unreadable row, unknown category… */
  invalidRows: z.number(),
  /** Imported, but flagged as role addresses (info@, sales@ …). */
  roleAddressRows: z.number(),
  /** Rows without a single value (skipped, not counted as processed). */
  emptyRows: z.number(),
  options: z.object({ checkMx: z.boolean(), maxRows: z.number().nullable() }),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

/**
 * The plan's room for more contacts (list imports; null when unlimited). A file bigger than `available`
 * is flagged at the mapping step, with the choice to import only the first rows.
 */
export const importCapacitySchema = z.object({
  limit: z.number(),
  used: z.number(),
  available: z.number(),
});
export type ImportCapacity = z.infer<typeof importCapacitySchema>;

/** Answer of POST /api/imports (201) and GET /api/imports/:id/preview. */
export const importUploadResultSchema = importInspectionSchema.extend({
  importId: z.string(),
  import: importSummarySchema,
  capacity: importCapacitySchema.nullable().optional(),
});
export type ImportUploadResult = z.infer<typeof importUploadResultSchema>;

/** Multipart text fields of POST /api/imports (the file part is named `file`). */
export const importUploadFieldsSchema = z.object({
  target: z.enum(IMPORT_TARGETS, { error: IMPORT_MESSAGES.badTarget }).default('list'),
  listId: z.uuid().optional(),
  newListName: z.string().trim().min(1).max(200).optional(),
});

/** POST /api/imports/:id/inspect: look again with another delimiter or encoding than detected. */
export const importReinspectSchema = z.strictObject({
  encoding: z.enum(IMPORT_ENCODINGS).optional(),
  delimiter: z.enum(IMPORT_DELIMITERS).optional(),
  hasHeader: z.boolean().optional(),
  /** The 1-based line holding the column names (implies a header row). */
  headerLine: z.number().int().min(1).max(1_000_000).optional(),
});
export type ImportReinspectInput = z.infer<typeof importReinspectSchema>;

export const importStartSchema = z.strictObject({
  mapping: importMappingSchema,
  hasHeader: z.boolean(),
  options: z
    .strictObject({
      checkMx: z.boolean().optional(),
      /** Import only the first this many contacts (a file bigger than the plan allows). */
      maxRows: z.number().int().min(1).optional(),
    })
    .optional(),
});
export type ImportStartInput = z.infer<typeof importStartSchema>;

export const importListSchema = z.object({ imports: z.array(importSummarySchema) });

export const importRejectionSchema = z.object({
  /** 1-based line of the row in the file (the header is line 1 when there is one). */
  line: z.number(),
  reason: z.string(),
  values: z.array(z.string()),
});

export const importRejectionsQuerySchema = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const importRejectionsSchema = z.object({
  /** The file's header cells (or Column N), to label `values`. */
  columns: z.array(z.string()),
  rows: z.array(importRejectionSchema),
  /** Pass as `after` for the next page; null at the end. */
  nextAfter: z.number().nullable(),
});
export type ImportRejections = z.infer<typeof importRejectionsSchema>;

/** Spreadsheet apps evaluate cells starting with these; exports prefix them with a quote. */
export function escapeCsvFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`.replace('.0 ', ' ');
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
