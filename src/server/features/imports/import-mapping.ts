import { AppError } from '@server/lib/errors';
import {
  CUSTOM_FIELD_PREFIX,
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS_BY_TARGET,
  IMPORT_MESSAGES,
  type ImportField,
  type ImportMapping,
  type ImportTarget,
  MAX_CUSTOM_FIELDS,
  RESERVED_FIELD_NAMES,
} from '@shared/imports';

/** The mapping must name exactly one email column, existing columns, and fields the target takes. */
export function validateMapping(input: {
  mapping: ImportMapping;
  columnCount: number;
  target: ImportTarget;
  existingCustomFields: string[];
}): void {
  const { mapping, columnCount, target } = input;
  const allowed = new Set<string>(IMPORT_FIELDS_BY_TARGET[target]);
  const used = new Set<string>();
  const custom = new Set<string>();
  let emails = 0;
  for (const [key, value] of Object.entries(mapping)) {
    if (Number(key) >= columnCount)
      throw new AppError('bad_request', IMPORT_MESSAGES.mappingUnknownColumn(String(Number(key) + 1)));
    if (value === 'ignore') continue;
    if (value.startsWith(CUSTOM_FIELD_PREFIX)) {
      const name = value.slice(CUSTOM_FIELD_PREFIX.length);
      if (target !== 'list') throw new AppError('bad_request', IMPORT_MESSAGES.mappingCustomNotAllowed);
      if (RESERVED_FIELD_NAMES.includes(name))
        throw new AppError('bad_request', IMPORT_MESSAGES.mappingReservedCustom(name));
      if (custom.has(name))
        throw new AppError('bad_request', IMPORT_MESSAGES.mappingDuplicateField(`custom field "${name}"`));
      custom.add(name);
      continue;
    }
    const field = value as ImportField;
    if (field === 'email') {
      emails++;
      continue;
    }
    if (!allowed.has(field))
      throw new AppError('bad_request', IMPORT_MESSAGES.mappingFieldNotAllowed(IMPORT_FIELD_LABELS[field]));
    if (used.has(field))
      throw new AppError('bad_request', IMPORT_MESSAGES.mappingDuplicateField(IMPORT_FIELD_LABELS[field]));
    used.add(field);
  }
  if (emails === 0) throw new AppError('bad_request', IMPORT_MESSAGES.mappingNoEmail);
  if (emails > 1) throw new AppError('bad_request', IMPORT_MESSAGES.mappingManyEmails);
  if (used.has('full_name') && (used.has('first_name') || used.has('last_name'))) {
    throw new AppError('bad_request', IMPORT_MESSAGES.mappingFullAndParts);
  }
  if (target === 'directory' && !(used.has('company') && used.has('country') && used.has('category'))) {
    throw new AppError('bad_request', IMPORT_MESSAGES.mappingDirectoryRequired);
  }
  const total = new Set([...input.existingCustomFields, ...custom]).size;
  if (custom.size > 0 && total > MAX_CUSTOM_FIELDS)
    throw new AppError('bad_request', IMPORT_MESSAGES.mappingTooManyCustom);
}
