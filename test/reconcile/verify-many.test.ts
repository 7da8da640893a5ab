import { getEventListeners } from 'node:events';

import { afterEach, describe, expect, it } from 'vitest';

import { RequestAbortedError, ValidationError, type Wallet } from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

import { seedCharge, settle, watchedSandbox } from './seed.js';

const open: (Sandbox | Wallet)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

function sandboxWith(options: Parameters<typeof createSandbox>[0] = {}): Sandbox {
  const sandbox = createSandbox(options);
  open.push(sandbox);
  return sandbox;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('charges.verifyMany', () => {
  it('answers every reference in input order from an async iterable, whatever order the answers come in', async () => {
    const sandbox = sandboxWith({ faults: { latency: [0, 15], seed: 7 } });
    const refs = Array.from({ length: 30 }, (_, i) => `order_${i}`);
    for (const [i, ref] of refs.entries())
      await seedCharge(sandbox, ref, 1000 + i, i % 2 ? 'SUCCESS' : 'FAILED');
    const { wallet, stats } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    async function* stream() {
      for (const ref of refs) yield ref;
    }
    const results = await collect(w.charges.verifyMany(stream(), { concurrency: 5 }));
    expect(results.map((r) => r.reference)).toEqual(refs);
    expect(results.map((r) => r.transaction?.amount)).toEqual(refs.map((_, i) => 1000 + i));
    expect(stats.maxInFlight).toBe(5);
  });

  it('never has more than `concurrency` verifies in flight (default 8)', async () => {
    const sandbox = sandboxWith({ faults: { latency: [1, 5] } });
    const { wallet, stats } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    const results = await collect(w.charges.verifyMany(Array.from({ length: 40 }, (_, i) => `nope_${i}`)));
    expect(results).toHaveLength(40);
    expect(stats.maxInFlight).toBe(8);
  });

  it("puts each row's failure on its row and goes on to the end", async () => {
    const sandbox = sandboxWith();
    await seedCharge(sandbox, 'good_1', 5000, 'SUCCESS');
    await seedCharge(sandbox, 'good_2', 6000, 'SUCCESS');
    const { wallet } = watchedSandbox(sandbox, async (request) =>
      request.url.endsWith('/broken')
        ? Response.json({ status: 'error', message: 'down' }, { status: 500 })
        : undefined,
    );
    const w = wallet();
    open.push(w);
    const results = await collect(
      w.charges.verifyMany(['good_1', 'broken', '', 'missing', 'good_2'], { maxRetries: 1 }),
    );
    expect(results.map((r) => [r.reference, r.error?.name ?? r.transaction?.status])).toEqual([
      ['good_1', 'SUCCESS'],
      ['broken', 'InternalServerError'],
      ['', 'ValidationError'],
      ['missing', 'NotFoundError'],
      ['good_2', 'SUCCESS'],
    ]);
  });

  it('retries a 503 on its row as a verify would, and the row ends with its transaction', async () => {
    const sandbox = sandboxWith();
    await seedCharge(sandbox, 'flaky', 5000, 'SUCCESS');
    let failures = 2;
    const { wallet, stats } = watchedSandbox(sandbox, async () =>
      failures-- > 0 ? Response.json({ status: 'error', message: 'busy' }, { status: 503 }) : undefined,
    );
    const w = wallet(0);
    open.push(w);
    const [result] = await collect(w.charges.verifyMany(['flaky']));
    expect(result?.transaction?.status).toBe('SUCCESS');
    expect(stats.verifies).toBe(3);
  });

  it('pauses every worker, not one, when the service answers 429 with Retry-After', async () => {
    const sandbox = sandboxWith();
    let limitedAt = 0;
    const { wallet, stats } = watchedSandbox(sandbox, async (request) => {
      if (request.url.endsWith('/r_3') && limitedAt === 0) {
        limitedAt = performance.now();
        return Response.json(
          { status: 'error', message: 'slow down' },
          { status: 429, headers: { 'retry-after': '1' } },
        );
      }
      await settle(5);
      return undefined;
    });
    const w = wallet();
    open.push(w);
    const refs = Array.from({ length: 24 }, (_, i) => `r_${i}`);
    const results = await collect(w.charges.verifyMany(refs, { concurrency: 4 }));
    expect(results.every((r) => r.error?.name === 'NotFoundError')).toBe(true);
    // Requests that started after the 429 was answered waited out the second it asked for, all of them.
    const after = stats.started.filter((s) => s.at > limitedAt);
    expect(after.length).toBeGreaterThan(15);
    for (const s of after) expect(s.at - limitedAt).toBeGreaterThanOrEqual(990);
  });

  it('waits out Retry-After within maxWait without using up maxRetries, and past it reports the row', async () => {
    const sandbox = sandboxWith();
    let limited = 0;
    const { wallet, stats } = watchedSandbox(sandbox, async (request) => {
      // r_0 is told to come back in a second, twice; r_1 in an hour.
      const wait = request.url.endsWith('/r_1') ? '3600' : limited++ < 2 ? '1' : undefined;
      if (wait === undefined) return undefined;
      return Response.json(
        { status: 'error', message: 'slow down' },
        { status: 429, headers: { 'retry-after': wait } },
      );
    });
    const w = wallet();
    open.push(w);
    const [waited] = await collect(w.charges.verifyMany(['r_0'], { maxRetries: 0, maxWait: 5_000 }));
    expect(waited?.error?.name).toBe('NotFoundError');
    expect(stats.verifies).toBe(3);
    const [refused] = await collect(w.charges.verifyMany(['r_1'], { maxRetries: 2, maxWait: 5_000 }));
    expect(refused?.error).toMatchObject({ name: 'RateLimitError' });
    expect(stats.verifies).toBe(4);
  });

  it('reads input at most a bounded window ahead of a slow row, so memory stays flat', async () => {
    const sandbox = sandboxWith();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { wallet } = watchedSandbox(sandbox, async (request) => {
      if (request.url.endsWith('/row_0')) await held;
      return undefined;
    });
    const w = wallet();
    open.push(w);
    let pulled = 0;
    function* endless() {
      for (let i = 0; ; i++) {
        pulled++;
        yield `row_${i}`;
      }
    }
    const run = w.charges.verifyMany(endless(), { concurrency: 4 });
    const first = run.next();
    await settle(300);
    const pulledWhileHeld = pulled;
    release();
    expect((await first).value?.reference).toBe('row_0');
    await run.return(undefined);
    expect(pulledWhileHeld).toBeGreaterThan(100);
    expect(pulledWhileHeld).toBeLessThanOrEqual(257);
  });

  it('stops at once when its signal fires: no new verify starts, the input is closed, the loop rejects', async () => {
    const sandbox = sandboxWith({ faults: { latency: 5 } });
    const { wallet, stats } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    let closed = false;
    function* refs() {
      try {
        for (let i = 0; i < 1000; i++) yield `ref_${i}`;
      } finally {
        closed = true;
      }
    }
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const r of w.charges.verifyMany(refs(), { concurrency: 2, signal: controller.signal })) {
        seen.push(r.reference);
        if (seen.length === 10) controller.abort();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(RequestAbortedError);
    const sent = stats.verifies;
    await settle(50);
    expect(stats.verifies).toBe(sent);
    expect(sent).toBeLessThan(20);
    expect(seen).toHaveLength(10);
    expect(closed).toBe(true);
  });

  it('yields each answer as it comes, without waiting for the next reference of a slow stream', async () => {
    const sandbox = sandboxWith();
    await seedCharge(sandbox, 'first', 5000, 'SUCCESS');
    const { wallet } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    let release!: () => void;
    const nextOrder = new Promise<void>((resolve) => (release = resolve));
    // References as orders come in: the next one may be minutes away.
    async function* queue() {
      yield 'first';
      await nextOrder;
      yield 'second';
    }
    const run = w.charges.verifyMany(queue());
    const first = await Promise.race([run.next(), settle(500).then(() => 'held until the next reference')]);
    release();
    expect(first).toMatchObject({ value: { reference: 'first', transaction: { status: 'SUCCESS' } } });
    expect((await run.next()).value).toMatchObject({ reference: 'second', error: { name: 'NotFoundError' } });
    expect((await run.next()).done).toBe(true);
  });

  it('stops when its signal fires while the input waits for its next reference', async () => {
    const sandbox = sandboxWith();
    const { wallet } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    async function* stalled() {
      yield 'a';
      await new Promise(() => undefined);
    }
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const run = collect(w.charges.verifyMany(stalled(), { signal: controller.signal }));
    const outcome = await Promise.race([run.catch((e: unknown) => e), settle(1_000).then(() => 'hung')]);
    expect(outcome).toBeInstanceOf(RequestAbortedError);
  });

  it('fails the run with a ValidationError when the input gives no iterator result, reading it no further', async () => {
    const sandbox = sandboxWith();
    await seedCharge(sandbox, 'a', 5000, 'SUCCESS');
    const { wallet } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    // A hand-written iterator that forgets its final `{ done: true }`: a contract slip of the merchant's code.
    let reads = 0;
    const input = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          reads++;
          if (reads === 1) return { value: 'a', done: false };
          return (reads < 50 ? undefined : { value: undefined, done: true }) as never;
        },
      }),
    };
    await expect(collect(w.charges.verifyMany(input))).rejects.toThrow(ValidationError);
    expect(reads).toBe(2);
  });

  it('leaves nothing on its signal while it waits on its caller: a long-lived signal does not keep a run left half-read', async () => {
    const sandbox = sandboxWith();
    await seedCharge(sandbox, 'a', 5000, 'SUCCESS');
    const { wallet } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    const appLifetime = new AbortController();
    // The first answer taken and the run dropped (no return()): nothing may hold it, nor its input.
    const run = w.charges.verifyMany(['a'], { signal: appLifetime.signal });
    expect((await run.next()).value?.reference).toBe('a');
    await settle();
    expect(getEventListeners(appLifetime.signal, 'abort')).toHaveLength(0);
    expect((await run.next()).done).toBe(true);
  });

  it('refuses bad options by name before sending anything', async () => {
    const sandbox = sandboxWith();
    const { wallet, stats } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    await expect(collect(w.charges.verifyMany(['a'], { concurrency: 0 }))).rejects.toThrow(ValidationError);
    await expect(collect(w.charges.verifyMany(['a'], { concurrensy: 2 } as never))).rejects.toThrow(
      /did you mean 'concurrency'/,
    );
    expect(stats.verifies).toBe(0);
  });

  it('refuses references that are not a list (one reference alone, undefined, a number) before sending anything', async () => {
    const sandbox = sandboxWith();
    await seedCharge(sandbox, 'o', 5000, 'SUCCESS');
    const { wallet, stats } = watchedSandbox(sandbox);
    const w = wallet();
    open.push(w);
    // A string type-checks (it is iterable): read as a list it would verify "o", "r", "d", … one letter at a time.
    await expect(collect(w.charges.verifyMany('order_1042'))).rejects.toThrow(/\[reference\]/);
    for (const input of [undefined, null, 42, { reference: 'order_1042' }]) {
      await expect(collect(w.charges.verifyMany(input as never))).rejects.toThrow(ValidationError);
    }
    expect(stats.verifies).toBe(0);
  });
});
