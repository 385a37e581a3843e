import type { ImportColumn } from '@shared/imports';
import { IMPORT_MESSAGES } from '@shared/imports';
import { describe, expect, it } from 'vitest';
import {
  applyChoice,
  choiceOptions,
  choicesFromMapping,
  describeMapped,
  hasProblems,
  slugifyCustomName,
  toMapping,
  validateChoices,
} from './import-mapping';

const columns: ImportColumn[] = [
  { index: 0, header: 'E-mail', sample: ['ada@example.com'] },
  { index: 1, header: 'First Name', sample: ['Ada'] },
  { index: 2, header: 'Favourite Colour', sample: ['green'] },
  { index: 3, header: 'Notes', sample: [''] },
];

describe('import mapping', () => {
  it('reads the server suggestion, custom fields included, and ignores the rest', () => {
    const choices = choicesFromMapping(
      columns,
      { '0': 'email', '1': 'first_name', '2': 'custom:favourite_colour' },
      'list',
    );
    expect(choices).toEqual({
      0: { kind: 'field', field: 'email' },
      1: { kind: 'field', field: 'first_name' },
      2: { kind: 'custom', name: 'favourite_colour' },
      3: { kind: 'ignore' },
    });
    expect(toMapping(choices)).toEqual({ '0': 'email', '1': 'first_name', '2': 'custom:favourite_colour' });
    expect(describeMapped(choices)).toEqual({ mapped: 3, total: 4 });
  });

  it('drops suggestions the target does not take', () => {
    const choices = choicesFromMapping(columns, { '0': 'email', '1': 'first_name' }, 'suppression');
    expect(choices[1]).toEqual({ kind: 'ignore' });
  });

  it('offers custom fields only for lists, and Ignore everywhere', () => {
    const list = choiceOptions('list').map((option) => option.value);
    expect(list).toContain('custom');
    expect(list.at(-1)).toBe('ignore');
    expect(choiceOptions('suppression').map((option) => option.value)).toEqual(['email', 'reason', 'ignore']);
    expect(choiceOptions('directory').map((option) => option.value)).toContain('category');
  });

  it('moves a field to the column that takes it, freeing the old one', () => {
    const choices = choicesFromMapping(columns, { '0': 'email' }, 'list');
    const moved = applyChoice(choices, columns[3] as ImportColumn, 'email');
    expect(moved[0]).toEqual({ kind: 'ignore' });
    expect(moved[3]).toEqual({ kind: 'field', field: 'email' });
  });

  it('names a new custom field after its header', () => {
    const choices = applyChoice({}, columns[2] as ImportColumn, 'custom');
    expect(choices[2]).toEqual({ kind: 'custom', name: 'favourite_colour' });
    expect(slugifyCustomName('2024 Revenue (₦)')).toBe('revenue');
    expect(slugifyCustomName('Échéance')).toBe('echeance');
    expect(slugifyCustomName('###', 4)).toBe('field_5');
  });

  it('requires exactly one email column', () => {
    expect(validateChoices({ 0: { kind: 'ignore' } }, 'list').general).toEqual([
      IMPORT_MESSAGES.mappingNoEmail,
    ]);
    const two = {
      0: { kind: 'field', field: 'email' },
      1: { kind: 'field', field: 'email' },
    } as const;
    expect(validateChoices(two, 'list').general).toContain(IMPORT_MESSAGES.mappingManyEmails);
  });

  it('asks a directory import for company, country and category columns', () => {
    const problems = validateChoices(
      { 0: { kind: 'field', field: 'email' }, 1: { kind: 'field', field: 'company' } },
      'directory',
    );
    expect(problems.general).toEqual([
      'Choose the column that holds the country.',
      'Choose the column that holds the category.',
    ]);
  });

  it('refuses a full name together with first or last name', () => {
    const problems = validateChoices(
      {
        0: { kind: 'field', field: 'email' },
        1: { kind: 'field', field: 'full_name' },
        2: { kind: 'field', field: 'last_name' },
      },
      'list',
    );
    expect(problems.general).toEqual([IMPORT_MESSAGES.mappingFullAndParts]);
  });

  it('checks custom field names against the list rules', () => {
    const problems = validateChoices(
      {
        0: { kind: 'field', field: 'email' },
        1: { kind: 'custom', name: 'Bad Name' },
        2: { kind: 'custom', name: 'city' },
        3: { kind: 'custom', name: 'segment' },
        4: { kind: 'custom', name: 'segment' },
      },
      'list',
    );
    expect(Object.keys(problems.byColumn).sort()).toEqual(['1', '2', '4']);
    expect(hasProblems(problems)).toBe(true);
    expect(hasProblems(validateChoices({ 0: { kind: 'field', field: 'email' } }, 'list'))).toBe(false);
  });
});
