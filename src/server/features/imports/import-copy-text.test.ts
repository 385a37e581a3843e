import { describe, expect, it } from 'vitest';
import { parseRecords } from './csv-records';
import { listCopyLine } from './import-eager-move';
import { CopyText } from './import-session';
import { RowProcessor, type StagedRow } from './row-processor';

const USER = 'user-1';
const LIST = '6f1d2c1e-8a8b-4c44-9a55-2d4b8c2f0b11';

function stagedRows(text: string, delimiter = ','): StagedRow[] {
  const processor = new RowProcessor({
    target: 'list',
    mapping: { '0': 'email', '1': 'first_name', '2': 'company', '3': 'country', '4': 'custom:note' },
  });
  const records = text.split('\n').map((line, i) => ({ line: i + 1, text: line }));
  return parseRecords(records, { delimiter }).map((record) => {
    const outcome = processor.process(record);
    if (outcome.kind !== 'candidate') throw new Error(`line ${record.line} was not accepted`);
    return outcome.row;
  });
}

describe('list_contacts COPY text', () => {
  it('writes a plain row as the escaping path does', () => {
    const rows = stagedRows(
      [
        'ada@x.com,Ada,Obi Ltd,Nigeria,"said ""hi"""',
        'bola@x.com,,"Eze, Sons",,',
        'info@x.com,Chidi,,GH,a\\b',
        'd@x.com,Dayo,Tab\there,NG,x',
      ].join('\n'),
    );
    expect(rows.map((row) => row.plain)).toEqual([true, true, false, false]);
    for (const row of rows) {
      expect(listCopyLine(row, USER, LIST)).toBe(listCopyLine({ ...row, plain: false }, USER, LIST));
    }
    expect(listCopyLine(rows[0]!, USER, LIST)).toBe(
      `${USER}\t${LIST}\tada@x.com\tada@x.com\tAda\t\\N\tObi Ltd\t\\N\t\\N\t\\N\t\\N\tNG\t{"note":"said \\\\"hi\\\\""}\tfalse\timport\n`,
    );
  });

  it('escapes what a tab-separated file holds', () => {
    const [row] = stagedRows('e@x.com\tEmeka\tA\\B\tKE\t', '\t');
    expect(row!.plain).toBe(false);
    expect(listCopyLine(row!, USER, LIST)).toContain('\tA\\\\B\t');
  });
});

describe('CopyText', () => {
  it('holds exactly what was appended, whatever size it was told to expect', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `row ${i}\tZoë Ọbí ✓\t${'x'.repeat(i % 50)}\n`);
    const expected = Buffer.from(lines.join(''), 'utf8');
    for (const expectedBytes of [0, 1, 1000, expected.length, expected.length * 4]) {
      const text = new CopyText(expectedBytes);
      for (const line of lines) text.append(line);
      expect(text.length).toBe(expected.length);
      expect(text.toBuffer().equals(expected)).toBe(true);
    }
  });
});
