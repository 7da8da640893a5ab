/**
 * The one CSV reader: the same records whatever the chunks the text arrives in (a field, a quote
 * or a CRLF cut between two reads), with the line each record starts on and the bytes it ends at.
 */
import { describe, expect, it } from 'vitest';

import { CsvSplitter, type CsvRecord } from '../src/reconcile/csv.js';

const TEXT =
  'reference,amount,status\r\n"ord ""1""",100,paid\r\n"multi\nline ₦",200,paid\n\nor"d,1,paid\n"x"y,1,paid\nlast,300,failed';

function split(text: string, size: number): CsvRecord[] {
  const splitter = new CsvSplitter();
  const out: CsvRecord[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...splitter.push(text.slice(i, i + size)));
  out.push(...splitter.end().records);
  return out;
}

describe('CsvSplitter', () => {
  it('reads the same records, lines and byte ends in chunks of any size', () => {
    const whole = split(TEXT, TEXT.length);
    expect(whole.map((r) => [r.line, r.fields ?? r.problem])).toEqual([
      [1, ['reference', 'amount', 'status']],
      [2, ['ord "1"', '100', 'paid']],
      [3, ['multi\nline ₦', '200', 'paid']],
      [6, 'line 6: cannot be read as CSV: a quote inside a field that does not start with one'],
      [7, 'line 7: cannot be read as CSV: text after a closing quote ("y")'],
      [8, ['last', '300', 'failed']],
    ]);
    expect(whole[2]?.end).toBe(Buffer.byteLength(TEXT.slice(0, TEXT.indexOf('paid\n\n') + 5)));
    for (const size of [1, 2, 3, 7, 64]) expect(split(TEXT, size)).toEqual(whole);
  });

  it('reports a quote never closed at its line and reads the lines after it again', () => {
    const records = split('a,b\n"open,1\nnext,2\nlast,3\n', 5);
    expect(records.map((r) => [r.line, r.fields ?? r.problem])).toEqual([
      [1, ['a', 'b']],
      [2, 'line 2: cannot be read as CSV: a quote opened on this line is never closed'],
      [3, ['next', '2']],
      [4, ['last', '3']],
    ]);
  });
});
