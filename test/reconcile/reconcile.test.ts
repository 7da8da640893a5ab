import { afterEach, describe, expect, it } from 'vitest';

import {
  estimateFee,
  ValidationError,
  type LedgerRow,
  type ReconcileProgress,
  type Wallet,
} from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

import { seedCharge, watchedSandbox } from './seed.js';

const open: (Sandbox | Wallet)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function setup(intercept?: Parameters<typeof watchedSandbox>[1]) {
  const sandbox = createSandbox();
  open.push(sandbox);
  const watched = watchedSandbox(sandbox, intercept);
  const wallet = watched.wallet(0);
  open.push(wallet);
  return { sandbox, wallet, stats: watched.stats };
}

describe('charges.reconcile', () => {
  it('gives each ledger row the verdict that tells the merchant what to do', async () => {
    const { sandbox, wallet } = setup();
    await seedCharge(sandbox, 'paid_ok', 450_000, 'SUCCESS');
    await seedCharge(sandbox, 'missed_webhook', 120_000, 'SUCCESS');
    await seedCharge(sandbox, 'declined', 99_900, 'FAILED');
    await seedCharge(sandbox, 'waiting', 70_000, 'PENDING_AUTHORIZATION');
    await seedCharge(sandbox, 'waiting_but_booked', 70_000, 'PENDING_AUTHORIZATION');
    await seedCharge(sandbox, 'other_amount', 300_000, 'SUCCESS');
    await seedCharge(sandbox, 'failed_ok', 1_000, 'FAILED');
    const ledger: (LedgerRow & { line: number })[] = [
      { line: 2, reference: 'paid_ok', amount: 450_000, status: 'paid' },
      { line: 3, reference: 'missed_webhook', amount: 120_000, status: 'pending' },
      { line: 4, reference: 'declined', amount: 99_900, status: 'paid' },
      { line: 5, reference: 'waiting', amount: 70_000, status: 'pending' },
      { line: 6, reference: 'waiting_but_booked', amount: 70_000, status: 'paid' },
      { line: 7, reference: 'other_amount', amount: 250_000, status: 'paid' },
      { line: 8, reference: 'never_sent', amount: 5_000, status: 'paid' },
      { line: 9, reference: 'failed_ok', amount: 1_000, status: 'failed' },
    ];
    const lines = await collect(wallet.charges.reconcile(ledger));
    expect(lines.map((l) => [l.expected.line, l.reference, l.verdict])).toEqual([
      [2, 'paid_ok', 'match'],
      [3, 'missed_webhook', 'paid_not_recorded'],
      [4, 'declined', 'recorded_not_paid'],
      [5, 'waiting', 'still_pending'],
      [6, 'waiting_but_booked', 'recorded_not_paid'],
      [7, 'other_amount', 'amount_mismatch'],
      [8, 'never_sent', 'unknown_reference'],
      [9, 'failed_ok', 'match'],
    ]);
    expect(lines[1]?.actual?.status).toBe('SUCCESS');
    expect(lines[5]?.detail).toBe('ledger 250000 Kobo, service 300000 Kobo');
  });

  it('says a ledger kept in Naira is one when the service holds exactly 100 times its amount', async () => {
    const { sandbox, wallet } = setup();
    await seedCharge(sandbox, 'naira_row', 450_000, 'SUCCESS');
    await seedCharge(sandbox, 'other_row', 450_000, 'SUCCESS');
    const lines = await collect(
      wallet.charges.reconcile([
        { reference: 'naira_row', amount: 4_500, status: 'paid' },
        { reference: 'other_row', amount: 4_501, status: 'paid' },
      ]),
    );
    expect(lines.map((l) => l.verdict)).toEqual(['amount_mismatch', 'amount_mismatch']);
    expect(lines[0]?.detail).toBe(
      'ledger 4500 Kobo, service 450000 Kobo: 100 times the ledger, so the ledger may be in Naira ' +
        '(amounts are Kobo; toKobo() converts)',
    );
    expect(lines[1]?.detail).toBe('ledger 4501 Kobo, service 450000 Kobo');
  });

  it('flags a paid charge whose fee or netAmount breaks the fee rule (2%, half up, capped at 200000)', async () => {
    const amount = 12_345_678;
    const fees: Record<string, [number, number]> = {
      fee_ok: [estimateFee(amount), amount - estimateFee(amount)],
      fee_uncapped: [Math.round(amount * 0.02), amount - Math.round(amount * 0.02)],
      net_wrong: [200_000, amount - 199_999],
    };
    // Seeded with those figures: the sandbox answers them as the service would.
    const { sandbox, wallet } = setup();
    sandbox.seed(
      Object.entries(fees).map(([reference, [fee, netAmount]]) => ({
        reference,
        amount,
        status: 'SUCCESS',
        fee,
        netAmount,
      })),
    );
    const ledger = Object.keys(fees).map((reference) => ({ reference, amount, status: 'paid' as const }));
    const lines = await collect(wallet.charges.reconcile(ledger));
    expect(lines.map((l) => [l.reference, l.verdict])).toEqual([
      ['fee_ok', 'match'],
      ['fee_uncapped', 'fee_mismatch'],
      ['net_wrong', 'fee_mismatch'],
    ]);
    expect(lines[1]?.detail).toBe('fee 246914 Kobo, the fee rule gives 200000');
  });

  it('reports a malformed row as an error on its own line, sends nothing for it, and goes on', async () => {
    const { sandbox, wallet, stats } = setup();
    await seedCharge(sandbox, 'fine', 1_000, 'SUCCESS');
    const ledger = [
      { reference: '', amount: 1_000, status: 'paid' },
      { reference: 'half', amount: 10.5, status: 'paid' },
      { reference: 'odd', amount: 1_000, status: 'settled' },
      { reference: 'fine', amount: 1_000, status: 'paid' },
    ] as LedgerRow[];
    const before = stats.verifies;
    const lines = await collect(wallet.charges.reconcile(ledger));
    expect(lines.map((l) => l.verdict)).toEqual(['error', 'error', 'error', 'match']);
    expect(lines[1]?.error?.name).toBe('ValidationError');
    expect(lines[1]?.detail).toMatch(/amount/);
    expect(lines[2]?.detail).toMatch(/status.*paid, pending, failed/);
    expect(stats.verifies - before).toBe(1);
  });

  it('refuses a ledger that is not a list of rows (one row alone, undefined, a CSV line) before sending anything', async () => {
    const { wallet, stats } = setup();
    for (const ledger of [{ reference: 'a', amount: 1_000, status: 'paid' }, undefined, 'a,1000,paid']) {
      await expect(collect(wallet.charges.reconcile(ledger as never))).rejects.toThrow(ValidationError);
    }
    expect(stats.verifies).toBe(0);
  });

  it('reports progress after every row, with counts by verdict and the total of an array', async () => {
    const { sandbox, wallet } = setup();
    await seedCharge(sandbox, 'a', 1_000, 'SUCCESS');
    const seen: ReconcileProgress[] = [];
    const ledger: LedgerRow[] = [
      { reference: 'a', amount: 1_000, status: 'paid' },
      { reference: 'b', amount: 1_000, status: 'paid' },
      { reference: 'a', amount: 1_000, status: 'pending' },
    ];
    await collect(wallet.charges.reconcile(ledger, { onProgress: (p) => seen.push(p) }));
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3]);
    expect(seen[2]).toMatchObject({
      total: 3,
      verdicts: { match: 1, unknown_reference: 1, paid_not_recorded: 1, error: 0 },
    });
  });

  it("puts a row the service keeps failing on as `error`, after a verify's retries", async () => {
    const { wallet, stats } = setup(async () =>
      Response.json({ status: 'error', message: 'down' }, { status: 502 }),
    );
    const [line] = await collect(
      wallet.charges.reconcile([{ reference: 'x', amount: 1, status: 'paid' }], { maxRetries: 1 }),
    );
    expect(line?.verdict).toBe('error');
    expect(line?.error?.name).toBe('InternalServerError');
    expect(stats.verifies).toBe(2);
  });
});
