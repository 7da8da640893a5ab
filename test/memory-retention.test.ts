/**
 * What a finished call leaves behind: nothing of its exchange. A merchant's long-lived signal or a
 * slow call still under way must not keep a finished attempt's body and
 * buffers alive. Checked with the collector itself (WeakRef after a forced gc), not with sizes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { startDeadline } from '../src/core/retry.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 5 && ref.deref() !== undefined; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

describe('what a finished attempt leaves behind', () => {
  it('lets go of a finished exchange while a slow attempt is under way and its signal lives on', async () => {
    const slow = startDeadline(60_000, undefined, { stop: () => undefined });
    const signal = new AbortController().signal; // a merchant's, shared by every call
    let exchange: { stop(): void; body: Uint8Array } | undefined = {
      stop: () => undefined,
      body: new Uint8Array(1 << 20),
    };
    const ref = new WeakRef(exchange);
    startDeadline(60_000, signal, exchange).done();
    exchange = undefined;
    expect(await collected(ref)).toBe(true);
    slow.done();
  });
});
