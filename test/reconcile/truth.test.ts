/**
 * A verdict is a statement about money: it is given only on an answer about that reference, in
 * NGN, with a status the spec lists. A service (or anything on the way) that answers otherwise
 * gets `error` with the reason, never `match` or `recorded_not_paid`. And verify itself refuses
 * an answer about another reference (`reference_mismatch`).
 */
import { afterEach, describe, expect, it } from 'vitest';

import { isWalletError, ResponseValidationError, Wallet, type LedgerRow } from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

import { seedCharge, TEST_KEY, watchedSandbox } from './seed.js';

const open: (Sandbox | Wallet)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

/** A sandbox whose verify answers are rewritten by `lie` (the body's `data`, as JSON). */
async function lyingService(lie: (data: Record<string, unknown>) => void) {
  const sandbox = createSandbox();
  open.push(sandbox);
  for (const [reference, status] of [
    ['paid_1', 'SUCCESS'],
    ['paid_2', 'SUCCESS'],
    ['failed_1', 'FAILED'],
  ] as const)
    await seedCharge(sandbox, reference, 10_000, status);
  const watched = watchedSandbox(sandbox, async (request) => {
    if (!new URL(request.url).pathname.includes('/verify/')) return undefined;
    const answer = await sandbox.fetch(request);
    const body = (await answer.json()) as { data: Record<string, unknown> };
    lie(body.data);
    return Response.json(body, { status: answer.status });
  });
  const wallet = watched.wallet(0);
  open.push(wallet);
  return wallet;
}

const ledger: LedgerRow[] = [
  { reference: 'paid_1', amount: 10_000, status: 'paid' },
  { reference: 'paid_2', amount: 10_000, status: 'pending' },
  { reference: 'failed_1', amount: 10_000, status: 'paid' },
];

async function verdicts(wallet: Wallet) {
  const out: [string, string, string][] = [];
  for await (const l of wallet.charges.reconcile(ledger)) out.push([l.reference, l.verdict, l.detail]);
  return out;
}

describe('charges.verify answered about another reference', () => {
  it('is a ResponseValidationError reference_mismatch naming both, outcome known (a GET)', async () => {
    const wallet = await lyingService((data) => (data.reference = 'someone_else'));
    const error = await wallet.charges.verify('paid_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(isWalletError(error) && error.code).toBe('reference_mismatch');
    const e = error as ResponseValidationError;
    expect(e.message).toContain('"someone_else"');
    expect(e.message).toContain('"paid_1"');
    expect(e.endpoint).toBe('GET /v1/charges/verify/{reference}');
    expect(e.attempts).toBe(1);
    expect(e.outcomeUnknown).toBe(false);
    expect(e.body).toMatchObject({ reference: 'someone_else' });
  });

  it('resolves as before when the answer is about the reference asked', async () => {
    const wallet = await lyingService(() => undefined);
    await expect(wallet.charges.verify('paid_1')).resolves.toMatchObject({ reference: 'paid_1' });
    const { response } = await wallet.charges.verify('paid_1').withResponse();
    expect(response.status).toBe(200);
  });
});

describe('reconcile gives no verdict on an answer it cannot trust', () => {
  it.each([
    [
      'another reference',
      (d: Record<string, unknown>) => (d.reference = 'paid_1'),
      /not "paid_2"|not "failed_1"/,
    ],
    ['another currency', (d: Record<string, unknown>) => (d.currency = 'USD'), /"USD", not NGN/],
    [
      'a lower-case status',
      (d: Record<string, unknown>) => (d.status = String(d.status).toLowerCase()),
      /is not one the spec lists/,
    ],
    [
      'REFUNDED',
      (d: Record<string, unknown>) => (d.status = 'REFUNDED'),
      /"REFUNDED" is not one the spec lists/,
    ],
    [
      'a status with an escape sequence',
      (d: Record<string, unknown>) => (d.status = '\u001b[2KSUCCESS'),
      /\\u001b\[2KSUCCESS/,
    ],
  ])('%s: every row is error with the reason', async (_, lie, reason) => {
    const wallet = await lyingService(lie);
    const rows = await verdicts(wallet);
    const lied = rows.filter(([, verdict]) => verdict === 'error');
    // "another reference" leaves paid_1's own answer true: that row keeps its verdict.
    expect(lied.length).toBeGreaterThanOrEqual(2);
    for (const [, , detail] of lied) expect(detail).toMatch(reason);
    expect(rows.filter(([, v]) => v !== 'error' && v !== 'match')).toEqual([]);
  });

  it('a front server 404 (a wrong base URL) is error, never unknown_reference', async () => {
    const sandbox = createSandbox({ baseUrl: 'https://sandbox.wallet.test/api' });
    open.push(sandbox);
    await seedCharge(sandbox, 'paid_1', 10_000, 'SUCCESS');
    const { url } = await sandbox.listen();
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: url.replace(/\/api$/, '/wrong'), maxRetries: 0 });
    open.push(wallet);
    const rows = await verdicts(wallet);
    expect(rows.map(([, v]) => v)).toEqual(['error', 'error', 'error']);
    expect(rows[0]?.[2]).toMatch(/No Wallet endpoint/);
  });
});
