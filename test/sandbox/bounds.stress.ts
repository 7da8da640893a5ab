/**
 * A million charges through one sandbox with the default maxCharges: memory and the state route
 * stay bounded. Charges arrive as seeds of 10,000 (paid, pending, failed, refunded) and as real
 * resolve + dispatch + authorize requests in between, so both ways in are counted.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import type { SandboxSeedCharge } from '@wallet/node/testing';

import { callSandbox, resolveAndDispatch } from './http-helpers.js';

const MiB = 1024 * 1024;
// A real collection before each sample (vitest's workers run without --expose-gc): RSS then
// measures what the sandbox keeps, not when V8 last chose to collect.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function batch(n: number): SandboxSeedCharge[] {
  return Array.from({ length: 10_000 }, (_, i) => ({
    reference: `b${n}_${i}`,
    amount: 1_000 + i,
    status: i % 10 === 0 ? 'PENDING_AUTHORIZATION' : i % 3 === 0 ? 'FAILED' : 'SUCCESS',
    ...(i % 7 === 0 && i % 10 !== 0 && i % 3 !== 0 ? { refunded: 500 } : {}),
  }));
}

describe('the sandbox under a million charges', () => {
  it('keeps RSS and the state route bounded, and forgets only finished charges', async () => {
    let forgotten = 0;
    const sandbox = createSandbox({
      logger: {
        info: (line) => {
          const match = / forgot (\d+) /.exec(line);
          if (match) forgotten += Number(match[1]);
        },
        warn: () => {},
      },
    });
    const rss: number[] = [];
    for (let n = 0; n < 100; n += 1) {
      // Pending charges of older batches ran out long ago in real life; expire them as the clock would.
      if (n > 0) {
        for (let i = 0; i < 10_000; i += 10) await sandbox.expire(`b${n - 1}_${i}`);
      }
      sandbox.seed(batch(n));
      for (let k = 0; k < 5; k += 1) {
        await resolveAndDispatch(sandbox, `live_${n}_${k}`, 5_000);
        await sandbox.authorize(`live_${n}_${k}`);
      }
      if (n % 10 === 9) {
        gc();
        rss.push(Math.round(process.memoryUsage().rss / MiB));
      }
    }
    const state = await callSandbox(sandbox, 'GET', '/_sandbox/state');
    const stateMiB = JSON.stringify(state.body).length / MiB;
    const figures = {
      charges: 100 * 10_000 + 100 * 5,
      kept: sandbox.charges.length,
      forgotten,
      rssMiBEvery100k: rss,
      stateRouteMiB: Number(stateMiB.toFixed(1)),
    };
    console.log(`[figures] sandbox bounds ${JSON.stringify(figures)}`);
    expect(sandbox.charges.length).toBeLessThanOrEqual(100_000);
    expect(sandbox.charges.length + forgotten).toBe(figures.charges);
    // The pending charges of the last batch are all still there.
    for (let i = 0; i < 10_000; i += 10)
      expect(sandbox.charge(`b99_${i}`)?.status).toBe('PENDING_AUTHORIZATION');
    expect(state.body.data.charges.length).toBeLessThanOrEqual(100_000);
    // Bounded: once the sandbox is full (half-way), RSS levels off instead of growing with the input
    // (before maxCharges it grew from 62 MB to 1,272 MB over a million charges).
    expect(Math.max(...rss.slice(5))).toBeLessThan(rss[4]! * 1.3);
    await sandbox.close();
  });
});
