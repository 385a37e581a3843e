import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  MAX_RECORD_CHARS,
  parseRecords,
  RecordSplitter,
  type SplitRecord,
  splitQuotedRecord,
} from './csv-records';

function split(text: string, chunkSize = 7, delimiter = ','): SplitRecord[] {
  const splitter = new RecordSplitter({ delimiter });
  const out: SplitRecord[] = [];
  for (let i = 0; i < text.length; i += chunkSize) splitter.push(text.slice(i, i + chunkSize), out);
  splitter.end(out);
  return out;
}

function rows(text: string, chunkSize = 7) {
  return parseRecords(split(text, chunkSize), { delimiter: ',' }).map((r) =>
    'error' in r ? { line: r.line, error: r.error } : { line: r.line, cells: r.cells },
  );
}

describe('RecordSplitter + parseRecords', () => {
  it('reads plain rows with their line numbers, skipping blank lines, in any chunking', () => {
    const text = 'email,name\r\na@x.com,Ada\r\n\r\n  \nb@x.com,"Obi, Bola"\n';
    for (const size of [1, 2, 5, 1000]) {
      expect(rows(text, size)).toEqual([
        { line: 1, cells: ['email', 'name'] },
        { line: 2, cells: ['a@x.com', 'Ada'] },
        { line: 5, cells: ['b@x.com', 'Obi, Bola'] },
      ]);
    }
  });

  it('can hand blank lines over as empty records, but not the text after the last line break', () => {
    const text = 'email,name\r\na@x.com,Ada\r\n\r\n  \nb@x.com,Obi\n\n';
    for (const size of [1, 3, 1000]) {
      const splitter = new RecordSplitter({ delimiter: ',', keepBlankLines: true });
      const out: SplitRecord[] = [];
      for (let i = 0; i < text.length; i += size) splitter.push(text.slice(i, i + size), out);
      splitter.end(out);
      expect(out.map((r) => [r.line, r.text])).toEqual([
        [1, 'email,name'],
        [2, 'a@x.com,Ada'],
        [3, ''],
        [4, ''],
        [5, 'b@x.com,Obi'],
        [6, ''],
      ]);
    }
  });

  it('keeps quoted line breaks and escaped quotes inside a cell', () => {
    expect(rows('a@x.com,"line 1\nline ""2"""\nb@x.com,x', 3)).toEqual([
      { line: 1, cells: ['a@x.com', 'line 1\nline "2"'] },
      { line: 3, cells: ['b@x.com', 'x'] },
    ]);
  });

  it('reads a quote in the middle of a cell as a character (relaxed quotes)', () => {
    expect(rows('a@x.com,5\'10" tall\nb@x.com,ok')).toEqual([
      { line: 1, cells: ['a@x.com', '5\'10" tall'] },
      { line: 2, cells: ['b@x.com', 'ok'] },
    ]);
  });

  it('rejects the line of a quote that never closes and reads on from the next line', () => {
    expect(rows('a@x.com,"unclosed\nb@x.com,fine\nc@x.com,also fine\n')).toEqual([
      { line: 1, error: 'malformed' },
      { line: 2, cells: ['b@x.com', 'fine'] },
      { line: 3, cells: ['c@x.com', 'also fine'] },
    ]);
  });

  it('rejects a stray quote whose cell would swallow whole rows, keeping those rows', () => {
    const text =
      'email,name,company\nada@x.com,Ada,"Obi\nbola@x.com,Bola,Ade Ltd\nchidi@x.com,Chidi,"Eze ""Best"" Foods"\nd@x.com,D,"Multi\nline, notes"\n';
    expect(rows(text, 5)).toEqual([
      { line: 1, cells: ['email', 'name', 'company'] },
      { line: 2, error: 'malformed' },
      { line: 3, cells: ['bola@x.com', 'Bola', 'Ade Ltd'] },
      { line: 4, cells: ['chidi@x.com', 'Chidi', 'Eze "Best" Foods'] },
      { line: 5, cells: ['d@x.com', 'D', 'Multi\nline, notes'] },
    ]);
  });

  it('rejects a stray quote that would swallow more than 100 lines', () => {
    const body = Array.from({ length: 150 }, (_, i) => `p${i}@x.com,${i}`).join('\n');
    const result = rows(`a@x.com,"oops\n${body}\n"`, 64);
    expect(result[0]).toEqual({ line: 1, error: 'malformed' });
    expect(result[1]).toEqual({ line: 2, cells: ['p0@x.com', '0'] });
    expect(result.filter((r) => 'cells' in r)).toHaveLength(150);
  });

  it('rejects an over-long line alone, without holding it, and goes on', () => {
    const long = `x@y.com,${'z'.repeat(MAX_RECORD_CHARS + 10)}`;
    const result = rows(`a@x.com,1\n${long}\nb@x.com,2\n`, 65_536);
    expect(result).toEqual([
      { line: 1, cells: ['a@x.com', '1'] },
      { line: 2, error: 'too_long' },
      { line: 3, cells: ['b@x.com', '2'] },
    ]);
  });

  it('isolates a record csv-parse refuses without losing the rest of the batch', () => {
    const splitter = new RecordSplitter({ delimiter: ';' });
    const records = splitter.end(splitter.push('a@x.com;"x"y"z\nb@x.com;2'));
    const parsed = parseRecords(records, { delimiter: ';' });
    expect(parsed.at(-1)).toEqual({ line: 2, cells: ['b@x.com', '2'], plain: true });
    expect(parsed).toHaveLength(2);
  });

  it('reads records with quotes as csv-parse does, well placed or not', () => {
    const records = [
      '"a@x.com",Ada',
      'a@x.com,"Obi, Bola"',
      'a@x.com,"Obi & Sons, Ltd",Lagos',
      'a@x.com,"",""',
      'a@x.com,"""quoted""","a ""b"" c"',
      '"""",x',
      'a@x.com,"multi\nline\r\nnotes",end',
      'a@x.com,"ends with delimiter,"',
      'a@x.com,,"",',
      'a@x.com,5\'10" tall,"x"',
      'a@x.com,"x"y,z',
      'a@x.com,"x" ,z',
      ' "a@x.com",x',
      'a@x.com,"x""',
      'a@x.com,"unclosed',
      'a@x.com,x"',
    ];
    for (const delimiter of [',', ';', '\t']) {
      for (const record of records) {
        const text = record.replaceAll(',', delimiter);
        let expected: unknown;
        try {
          const parsed = parse(text, {
            delimiter,
            relax_quotes: true,
            relax_column_count: true,
            record_delimiter: '\n',
          }) as string[][];
          expected = parsed.length === 1 ? parsed[0] : 'malformed';
        } catch {
          expected = 'malformed';
        }
        const [result] = parseRecords([{ line: 1, text }], { delimiter });
        expect('error' in result! ? 'malformed' : result!.cells, JSON.stringify(text)).toEqual(expected);
      }
    }
  });

  it('leaves badly placed quotes to csv-parse', () => {
    expect(splitQuotedRecord('a@x.com,"Obi, Bola",x', ',')).toEqual(['a@x.com', 'Obi, Bola', 'x']);
    expect(splitQuotedRecord('a@x.com,"x"y', ',')).toBeNull();
    expect(splitQuotedRecord('a@x.com,x"y', ',')).toBeNull();
    expect(splitQuotedRecord('a@x.com,"never closed', ',')).toBeNull();
  });
});
