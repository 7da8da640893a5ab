/**
 * Repeated references in a ledger: only a real repeat is one. References are remembered by hash
 * to keep memory flat; two references sharing a hash must not be reported as one, or settlements
 * would count two charges once and call the day short.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { readHeader, scanLedger, type LedgerFormat } from '../src/reconcile/ledger.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-ledger-repeats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FORMAT: LedgerFormat = {
  referenceColumn: 'reference',
  amountColumn: 'amount',
  statusColumn: 'status',
  amountUnit: 'kobo',
};

async function repeatsOf(references: string[], hash?: (reference: string) => number) {
  const file = join(dir, `ledger-${references.join('-')}.csv`);
  writeFileSync(file, ['reference,amount,status', ...references.map((r) => `${r},100,paid`)].join('\n'));
  const header = await readHeader(file, FORMAT);
  if (typeof header === 'string') throw new Error(header);
  const scan = await scanLedger(file, FORMAT, header.columns, undefined, hash);
  return Object.fromEntries(scan.repeats);
}

describe('repeated references', () => {
  it('names each later row of a reference with the line of its first row', async () => {
    // Lines: header 1, then a 2, b 3, a 4, c 5, b 6, a 7.
    expect(await repeatsOf(['a', 'b', 'a', 'c', 'b', 'a'])).toEqual({ 4: 2, 6: 3, 7: 2 });
  });

  it('tells apart different references that share a hash', async () => {
    const everythingCollides = (): number => 7;
    expect(await repeatsOf(['x1', 'x2', 'x3'], everythingCollides)).toEqual({});
    expect(await repeatsOf(['a', 'b', 'a', 'c', 'b', 'a'], everythingCollides)).toEqual({ 4: 2, 6: 3, 7: 2 });
  });

  it('finds no repeat in a ledger without one', async () => {
    expect(await repeatsOf(['order_1', 'order_2', 'order_3'])).toEqual({});
  });
});
