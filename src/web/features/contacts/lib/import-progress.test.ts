import { describe, expect, it } from 'vitest';
import { describeProgress, rejectedRows, stepForStatus, unchangedMessage } from './import-progress';

describe('import progress', () => {
  it('resumes the wizard at the step of the import status', () => {
    expect(stepForStatus(undefined)).toBe('upload');
    expect(stepForStatus('uploaded')).toBe('map');
    expect(stepForStatus('queued')).toBe('progress');
    expect(stepForStatus('running')).toBe('progress');
    expect(stepForStatus('completed')).toBe('report');
    expect(stepForStatus('failed')).toBe('report');
    expect(stepForStatus('cancelled')).toBe('report');
  });

  it('says "about" while the total is an estimate', () => {
    expect(
      describeProgress({ processedRows: 12_000, totalRows: null, estimatedRows: 200_000, percent: 6 }),
    ).toEqual({
      percent: 6,
      text: '12,000 of about 200,000 rows',
    });
    expect(
      describeProgress({ processedRows: 200_000, totalRows: 200_000, estimatedRows: 190_000, percent: 100 }),
    ).toEqual({
      percent: 100,
      text: '200,000 of 200,000 rows',
    });
  });

  it('never shows more processed rows than the total when the estimate was low', () => {
    expect(
      describeProgress({ processedRows: 1_500, totalRows: null, estimatedRows: 1_000, percent: 99 }).text,
    ).toBe('1,500 of about 1,500 rows');
  });

  it('clamps the percentage', () => {
    expect(describeProgress({ processedRows: 0, totalRows: 0, estimatedRows: 0, percent: 140 }).percent).toBe(
      100,
    );
  });

  it('counts every row that did not become a contact', () => {
    expect(rejectedRows({ duplicateRows: 2, existingRows: 3, invalidRows: 4 })).toBe(9);
  });

  it('tells that a failed or cancelled import changed nothing', () => {
    expect(unchangedMessage({ target: 'list', listName: 'Lagos', status: 'cancelled' })).toBe(
      'The import was cancelled. Nothing was imported: the list “Lagos” is unchanged.',
    );
    expect(unchangedMessage({ target: 'suppression', listName: null, status: 'failed' })).toBe(
      'The import failed. Nothing was imported: your suppression list is unchanged.',
    );
  });
});
