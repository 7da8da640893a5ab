/**
 * The sandbox-abuse scenarios, bigger and longer (`npm run test:stress`): hundreds of megabytes
 * refused, hundreds of slow clients, thousands of racing refunds and dispatches, and a flood of
 * 30,000 requests with fresh idempotency keys after which the heap is where it was.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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
import { TEST_KEY, callHttp } from '../sandbox/http-helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const target = abuseTarget();

describe('sandbox abuse, stress form', () => {
  it('refuses 16 uploads of 100 MB with RSS bounded', async () => {
    const { result, growthMb } = await peakRss(async () => {
      const statuses: (number | string)[] = [];
      for (let round = 0; round < 4; round++) {
        statuses.push(...(await Promise.all([0, 1, 2, 3].map((i) => upload(target.url, 100, i % 2 === 0)))));
      }
      return statuses;
    });
    console.log(`16 x 100 MB uploads: ${JSON.stringify(result)}; peak RSS growth ${growthMb.toFixed(1)} MB`);
    expect(result.every((s) => s === 413 || s === 'ECONNRESET' || s === 'EPIPE')).toBe(true);
    expect(growthMb).toBeLessThan(96);
    await target.alive();
  });

  it('refuses every malformed request 20 times over', async () => {
    for (let round = 0; round < 20; round++) {
      const got = await Promise.all(MALFORMED.map(([, bytes]) => raw(target.url, bytes)));
      expect(got).toEqual(MALFORMED.map(([, , status]) => status));
    }
    await target.alive();
  });

  it('cuts off 300 dripping clients at the request timeout', async () => {
    const strict = await target.sandbox.listen({ requestTimeoutMs: 2000 });
    // Bodies that would be complete after 20 s: only the 2 s request timeout can answer them 408.
    const slow = slowClients(strict.url, 300, 200, 100);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => callHttp(strict.url, 'GET', '/v1/charges/verify/x')),
    );
    expect(answers.every((a) => a.status === 404)).toBe(true);
    const { statuses, ms } = await slow;
    console.log(`300 dripping clients all cut after ${Math.round(ms)} ms (request timeout 2000 ms)`);
    expect(statuses).toEqual(Array.from({ length: 300 }, () => 408));
    await strict.close();
  });

  it('never refunds more than was paid: 10 charges x 400 racing refunds', async () => {
    const references = Array.from({ length: 10 }, (_, i) => `order_sr${i}`);
    for (const reference of references) await paid(target.url, reference, 200_000);
    // One charge at a time, its 400 refunds at once: the race is within each charge, and 4,000
    // connections at once would overflow the kernel's listen backlog (511) and measure only that.
    const races: Awaited<ReturnType<typeof raceRefunds>>[] = [];
    for (const [i, reference] of references.entries()) {
      races.push(await raceRefunds(target.url, reference, 400, i + 1));
    }
    references.forEach((reference, i) => {
      const charge = target.sandbox.charge(reference)!;
      const recorded = target.sandbox.refunds
        .filter((r) => r.reference === reference)
        .reduce((sum, r) => sum + r.amount, 0);
      expect(charge.refundedAmount).toBeLessThanOrEqual(200_000);
      expect(recorded).toBe(charge.refundedAmount);
      expect(races[i]!.refundedByAnswers).toBe(charge.refundedAmount);
    });
    await target.alive();
  });

  it('debits exactly once: 200 charges x (10 dispatches + 5 authorizations) racing', async () => {
    const references = Array.from({ length: 200 }, (_, i) => `order_sd${i}`);
    // 20 charges at a time (300 requests in flight): the race is within each charge, and more
    // connections at once than the kernel's listen backlog only measures the backlog.
    for (let i = 0; i < references.length; i += 20)
      await raceDispatches(target.url, references.slice(i, i + 20), 10, 5);
    for (const reference of references) {
      expect(target.sandbox.debits.filter((d) => d.reference === reference)).toHaveLength(1);
    }
    await target.alive();
  });

  it('keeps a flat heap through 30,000 requests with fresh idempotency keys', async () => {
    await paid(target.url, 'order_flood', 1000);
    await callHttp(target.url, 'POST', '/v1/refunds', { body: { reference: 'order_flood' } });
    const flood = async (from: number, count: number): Promise<void> => {
      for (let i = from; i < from + count; i += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            fetch(`${target.url}/v1/refunds`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${TEST_KEY}`,
                'content-type': 'application/json',
                'x-idempotency-key': `flood-${i + j}`,
              },
              body: JSON.stringify({ reference: 'order_flood', amount: 1, reason: 'x'.repeat(500) }),
            }).then((r) => r.arrayBuffer()),
          ),
        );
      }
    };
    await flood(0, 10_000);
    const after10k = heapMb();
    await flood(10_000, 20_000);
    const after30k = heapMb();
    console.log(
      `heap after 10,000 keyed requests ${after10k.toFixed(1)} MB, after 30,000 ${after30k.toFixed(1)} MB`,
    );
    expect(after30k - after10k).toBeLessThan(8);
    expect(target.sandbox.requests).toHaveLength(1000);
    await target.alive();
  });
});
