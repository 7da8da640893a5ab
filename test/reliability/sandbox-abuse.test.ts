/**
 * The sandbox stays a faithful server under abuse over loopback: oversized bodies answered 413
 * without being held, malformed requests refused, slow clients cut off without slowing anyone else,
 * and refunds and dispatches racing each other never refund more than was paid nor debit twice.
 * `sandbox-abuse.stress.ts` runs the same scenarios bigger.
 */
import { describe, expect, it } from 'vitest';

import {
  MALFORMED,
  abuseTarget,
  paid,
  peakRss,
  raceDispatches,
  raceRefunds,
  raw,
  slowClients,
  upload,
} from '../sandbox/abuse.js';
import { callHttp } from '../sandbox/http-helpers.js';

const target = abuseTarget();

describe('sandbox abuse over loopback', () => {
  it('answers 413 to four 50 MB bodies, declared or chunked, without holding them', async () => {
    const { result, growthMb } = await peakRss(() =>
      Promise.all([
        upload(target.url, 50, false),
        upload(target.url, 50, true),
        upload(target.url, 50, false),
        upload(target.url, 50, true),
      ]),
    );
    // A 413 usually arrives; a client still writing may instead see its connection cut after it.
    expect(result.every((status) => status === 413 || status === 'ECONNRESET' || status === 'EPIPE')).toBe(
      true,
    );
    expect(result.filter((status) => status === 413).length).toBeGreaterThanOrEqual(2);
    expect(growthMb).toBeLessThan(64);
    await target.alive();
  });

  it.each(MALFORMED)('refuses %s with its status and stays up', async (_, bytes, status) => {
    expect(await raw(target.url, bytes)).toBe(status);
    await target.alive();
  });

  it('cuts off clients that drip their body, while others are answered without waiting for them', async () => {
    const strict = await target.sandbox.listen({ requestTimeoutMs: 1000 });
    // Bodies that would be complete after 10 s: only the 1 s request timeout can answer them 408.
    const slow = slowClients(strict.url, 30, 100, 100);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => callHttp(strict.url, 'GET', '/v1/charges/verify/x')),
    );
    expect(answers.every((a) => a.status === 404)).toBe(true);
    const { statuses, ms } = await slow;
    expect(statuses).toEqual(Array.from({ length: 30 }, () => 408));
    // Cut by the request timeout, not refused at once (a loaded machine can only make it later).
    expect(ms).toBeGreaterThanOrEqual(950);
    await strict.close();
    await target.alive();
  });

  it('never refunds more than was paid when 300 refunds race, retries and key reuse included', async () => {
    await paid(target.url, 'order_race', 100_000);
    const race = await raceRefunds(target.url, 'order_race', 300);
    const charge = target.sandbox.charge('order_race')!;
    const records = target.sandbox.refunds.filter((r) => r.reference === 'order_race');
    expect(charge.refundedAmount).toBeLessThanOrEqual(100_000);
    expect(records.reduce((sum, r) => sum + r.amount, 0)).toBe(charge.refundedAmount);
    expect(race.refundedByAnswers).toBe(charge.refundedAmount);
    expect(race.replays).toBeGreaterThan(0);
    expect(race.statuses[422]).toBeGreaterThan(0);
    expect(Object.keys(race.statuses).sort()).toEqual(['200', '422']);
  });

  it('debits exactly once when dispatches and authorizations of 40 pending charges race', async () => {
    const references = Array.from({ length: 40 }, (_, i) => `order_d${i}`);
    await raceDispatches(target.url, references, 6, 4);
    for (const reference of references) {
      const debits = target.sandbox.debits.filter((d) => d.reference === reference);
      const charge = target.sandbox.charge(reference)!;
      expect(debits).toHaveLength(1);
      expect(charge.status).toBe('SUCCESS');
      const verified = await callHttp(target.url, 'GET', `/v1/charges/verify/${reference}`);
      expect(verified.body.data.status).toBe(
        charge.status === 'PENDING_SCAN' ? 'PENDING_AUTHORIZATION' : charge.status,
      );
    }
    await target.alive();
  });
});
