import {
  CUSTOM_FIELD_NAME,
  CUSTOM_FIELD_NAME_MAX,
  CUSTOM_FIELDS_MAX,
  LIST_CONTACT_FIELDS,
} from '@shared/contacts';
import {
  CUSTOM_FIELD_PREFIX,
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS_BY_TARGET,
  IMPORT_MESSAGES,
  type ImportColumn,
  type ImportField,
  type ImportMapping,
  type ImportTarget,
} from '@shared/imports';

/** A list's custom field names (src/shared/contacts.ts; the importer applies the same rule). */
const BUILT_IN_FIELDS = new Set<string>(LIST_CONTACT_FIELDS);

/** Columns a directory import cannot do without (the directory's own required fields). */
export const DIRECTORY_REQUIRED_FIELDS: readonly ImportField[] = ['company', 'country', 'category'];

/** What one column of the file becomes, as the mapping step edits it. */
export type ColumnChoice =
  | { kind: 'field'; field: ImportField }
  | { kind: 'custom'; name: string }
  | { kind: 'ignore' };

export type ColumnChoices = Record<number, ColumnChoice>;

/** The value of a column's select: a field, `custom` or `ignore`. */
export type ChoiceOptionValue = ImportField | 'custom' | 'ignore';

export interface ChoiceOption {
  value: ChoiceOptionValue;
  label: string;
}

/** Shorter labels than the server's for the select (the full-name note goes in a hint). */
const OPTION_LABELS: Partial<Record<ImportField, string>> = { full_name: 'Full name' };

/** The select's options for a target, in the order a person reads a contact. */
export function choiceOptions(target: ImportTarget): ChoiceOption[] {
  const fields = IMPORT_FIELDS_BY_TARGET[target].map((field) => ({
    value: field,
    label: OPTION_LABELS[field] ?? IMPORT_FIELD_LABELS[field],
  }));
  return [
    ...fields,
    ...(target === 'list' ? [{ value: 'custom' as const, label: 'Custom field…' }] : []),
    { value: 'ignore', label: 'Ignore this column' },
  ];
}

export function choiceValue(choice: ColumnChoice): ChoiceOptionValue {
  return choice.kind === 'field' ? choice.field : choice.kind;
}

/** A header as a custom field name: "Favourite colour!" → "favourite_colour". */
export function slugifyCustomName(header: string, fallbackIndex = 0): string {
  const slug = header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, CUSTOM_FIELD_NAME_MAX)
    .replace(/_+$/, '');
  return slug || `field_${fallbackIndex + 1}`;
}

/** The server's suggestion (or a saved mapping) as one choice per column; unmapped columns are ignored. */
export function choicesFromMapping(
  columns: readonly ImportColumn[],
  mapping: ImportMapping,
  target: ImportTarget,
): ColumnChoices {
  const allowed = new Set<string>(IMPORT_FIELDS_BY_TARGET[target]);
  const choices: ColumnChoices = {};
  for (const column of columns) {
    const value = mapping[String(column.index)];
    if (value?.startsWith(CUSTOM_FIELD_PREFIX) && target === 'list') {
      choices[column.index] = { kind: 'custom', name: value.slice(CUSTOM_FIELD_PREFIX.length) };
    } else if (value && value !== 'ignore' && allowed.has(value)) {
      choices[column.index] = { kind: 'field', field: value as ImportField };
    } else {
      choices[column.index] = { kind: 'ignore' };
    }
  }
  return choices;
}

/** A column's new choice from its select. Picking a field another column holds frees that column. */
export function applyChoice(
  choices: ColumnChoices,
  column: ImportColumn,
  value: ChoiceOptionValue,
): ColumnChoices {
  const next: ColumnChoices = { ...choices };
  if (value === 'ignore') {
    next[column.index] = { kind: 'ignore' };
  } else if (value === 'custom') {
    const current = choices[column.index];
    next[column.index] = {
      kind: 'custom',
      name: current?.kind === 'custom' ? current.name : slugifyCustomName(column.header, column.index),
    };
  } else {
    for (const [key, choice] of Object.entries(next)) {
      if (choice.kind === 'field' && choice.field === value) next[Number(key)] = { kind: 'ignore' };
    }
    next[column.index] = { kind: 'field', field: value };
  }
  return next;
}

/** The body's `mapping`: ignored columns are left out. */
export function toMapping(choices: ColumnChoices): ImportMapping {
  const mapping: ImportMapping = {};
  for (const [key, choice] of Object.entries(choices)) {
    if (choice.kind === 'field') mapping[key] = choice.field;
    else if (choice.kind === 'custom') mapping[key] = `${CUSTOM_FIELD_PREFIX}${choice.name}`;
  }
  return mapping;
}

export interface MappingProblems {
  /** Problems of the mapping as a whole, in the server's words. */
  general: string[];
  /** Problems of one column (a bad or repeated custom field name). */
  byColumn: Record<number, string>;
}

const CUSTOM_NAME_RULE =
  'Use lower-case letters, digits and underscores, starting with a letter (at most 40).';

/** What the server would refuse (IMPORT_MESSAGES.mapping*), checked before the import starts. */
export function validateChoices(choices: ColumnChoices, target: ImportTarget): MappingProblems {
  const general: string[] = [];
  const byColumn: Record<number, string> = {};
  const values = Object.entries(choices).map(([key, choice]) => [Number(key), choice] as const);

  const emailColumns = values.filter(([, choice]) => choice.kind === 'field' && choice.field === 'email');
  if (emailColumns.length === 0) general.push(IMPORT_MESSAGES.mappingNoEmail);
  if (emailColumns.length > 1) general.push(IMPORT_MESSAGES.mappingManyEmails);

  const seen = new Map<ImportField, number>();
  for (const [, choice] of values) {
    if (choice.kind !== 'field' || choice.field === 'email') continue;
    seen.set(choice.field, (seen.get(choice.field) ?? 0) + 1);
  }
  for (const [field, count] of seen) {
    if (count > 1) general.push(IMPORT_MESSAGES.mappingDuplicateField(IMPORT_FIELD_LABELS[field]));
  }
  if (seen.has('full_name') && (seen.has('first_name') || seen.has('last_name'))) {
    general.push(IMPORT_MESSAGES.mappingFullAndParts);
  }
  // A directory contact needs a company, a country and a category; without the column every row fails.
  if (target === 'directory') {
    for (const field of DIRECTORY_REQUIRED_FIELDS) {
      if (!seen.has(field))
        general.push(`Choose the column that holds the ${IMPORT_FIELD_LABELS[field].toLowerCase()}.`);
    }
  }

  const customNames = new Map<string, number>();
  let customCount = 0;
  for (const [index, choice] of values) {
    if (choice.kind !== 'custom') continue;
    customCount += 1;
    if (target !== 'list') {
      byColumn[index] = IMPORT_MESSAGES.mappingCustomNotAllowed;
    } else if (!CUSTOM_FIELD_NAME.test(choice.name)) {
      byColumn[index] = CUSTOM_NAME_RULE;
    } else if (BUILT_IN_FIELDS.has(choice.name)) {
      byColumn[index] = `“${choice.name}” is a built-in field: map the column to it instead.`;
    } else if (customNames.has(choice.name)) {
      byColumn[index] = `Another column already uses the name “${choice.name}”.`;
    } else {
      customNames.set(choice.name, index);
    }
  }
  if (customCount > CUSTOM_FIELDS_MAX)
    general.push(`At most ${CUSTOM_FIELDS_MAX} custom fields can be imported.`);
  return { general, byColumn };
}

export function hasProblems(problems: MappingProblems): boolean {
  return problems.general.length > 0 || Object.keys(problems.byColumn).length > 0;
}

/** "3 of 5 columns will be imported". */
export function describeMapped(choices: ColumnChoices): { mapped: number; total: number } {
  const all = Object.values(choices);
  return { mapped: all.filter((choice) => choice.kind !== 'ignore').length, total: all.length };
}

export const DELIMITER_LABELS: Record<string, string> = {
  ',': 'Comma (,)',
  ';': 'Semicolon (;)',
  '\t': 'Tab',
  '|': 'Pipe (|)',
};

export const ENCODING_LABELS: Record<string, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Windows-1252 (Excel, Western)',
};
