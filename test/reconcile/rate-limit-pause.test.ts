/**
 * verifyMany and reconcile under the service's rate limit, on vitest's fake clock: a `Retry-After`
 * pauses every worker of the run, and one longer than the run may wait stops it sending.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

import { RateLimitError, RequestAbortedError, type Wallet } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';

import { fakeClock, track } from '../helpers/fake-clock.js';
import { settle, watchedSandbox } from './seed.js';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const slowDown = (seconds: number) =>
  Response.json(
    { status: 'error', message: 'slow down' },
    { status: 429, headers: { 'retry-after': String(seconds) } },
  );

/** A client over the sandbox whose verifies `intercept` may answer, warmed up on the real clock. */
async function rateLimited(intercept: (reference: string) => Promise<Response | undefined>) {
  const sandbox = createSandbox();
  open.push(sandbox);
  let warm = true;
  const watched = watchedSandbox(sandbox, (request) =>
    warm ? Promise.resolve(undefined) : intercept(decodeURIComponent(request.url.split('/').pop()!)),
  );
  const wallet: Wallet = watched.wallet();
  open.push(wallet);
  // Loads verifyMany, reconcile and the schemas before the clock stops.
  await collect(wallet.charges.reconcile([{ reference: 'warm', amount: 100, status: 'paid' }]));
  warm = false;
  watched.stats.verifies = 0;
  watched.stats.started.length = 0;
  fakeClock();
  return { wallet, stats: watched.stats };
}

const refs = (n: number) => Array.from({ length: n }, (_, i) => `r_${i}`);

describe('verifyMany under a Retry-After', () => {
  it('holds every worker for the time asked, then retries the limited row instead of reporting it', async () => {
    let limitedAt: number | undefined;
    const { wallet, stats } = await rateLimited(async (reference) => {
      if (reference !== 'r_3' || limitedAt !== undefined) return undefined;
      limitedAt = performance.now();
      return slowDown(10);
    });
    const after = track(collect(wallet.charges.verifyMany(refs(24), { concurrency: 4 })));
    const paused = await after(9_900);
    expect(paused.settled).toBe(false);
    expect(stats.started.every((s) => s.at <= limitedAt! || s.at >= limitedAt! + 10_000)).toBe(true);
    const done = await after(1_000);
    expect(done.value?.map((r) => [r.reference, r.error?.name])).toEqual(
      refs(24).map((r) => [r, 'NotFoundError']),
    );
    expect(stats.started.filter((s) => s.reference === 'r_3')).toHaveLength(2);
  });

  it('sends nothing more once asked to wait longer than maxWait: the other rows end at once, unsent, saying why', async () => {
    const { wallet, stats } = await rateLimited(async () => slowDown(3_600));
    const after = track(collect(wallet.charges.verifyMany(refs(40), { concurrency: 4 })));
    const { settled, value } = await after(100);
    expect(settled).toBe(true);
    expect(value?.map((r) => r.reference)).toEqual(refs(40));
    // Only the verifies already under way when the first answer came: no worker sends into the limit.
    expect(stats.verifies).toBeLessThanOrEqual(4);
    const sent = new Set(stats.started.map((s) => s.reference));
    for (const { reference, error } of value!) {
      expect(error).toBeInstanceOf(RateLimitError);
      if (sent.has(reference)) continue;
      expect(error).toMatchObject({ attempts: 0, status: 429 });
      expect((error as RateLimitError).retryAfter).toBeGreaterThan(3_599);
      expect(error?.message).toMatch(
        /^Not sent: the service \("slow down"\) asked .*Retry-After.*longer than this run's maxWait of 20 s/,
      );
    }
  });

  it('ends the rows waiting out a short pause as soon as a longer one than maxWait is asked', async () => {
    const { wallet, stats } = await rateLimited(async (reference) => {
      if (reference === 'r_0') return slowDown(5);
      if (reference !== 'r_1') return undefined;
      await settle(1_000);
      return slowDown(600);
    });
    const after = track(collect(wallet.charges.verifyMany(refs(10), { concurrency: 2, maxWait: 60_000 })));
    const { settled, value } = await after(1_100);
    expect(settled).toBe(true);
    expect(stats.started.map((s) => s.reference)).toEqual(['r_0', 'r_1']);
    expect(value?.[0]?.error).toMatchObject({ attempts: 1, message: /^Not verified after 1 attempt: / });
    expect(value?.[1]?.error).toMatchObject({ attempts: 1, message: 'slow down' });
    expect(value?.slice(2).every((r) => r.error?.attempts === 0)).toBe(true);
  });

  it('stops at once when its signal fires during the pause, sending nothing more', async () => {
    const { wallet, stats } = await rateLimited(async (reference) =>
      reference === 'r_0' ? slowDown(15) : undefined,
    );
    const controller = new AbortController();
    const run = wallet.charges.verifyMany(refs(20), { concurrency: 2, signal: controller.signal });
    const after = track(collect(run));
    await after(1_000);
    const sent = stats.verifies;
    controller.abort();
    const { settled, error } = await after(1);
    expect(settled).toBe(true);
    expect(error).toBeInstanceOf(RequestAbortedError);
    await after(20_000);
    expect(stats.verifies).toBe(sent);
  });

  it.each([
    ['null', null],
    [
      'a WalletError of another call',
      new RequestAbortedError({ endpoint: 'GET /x', attempts: 1, message: 'gone after 1 attempt' }),
    ],
  ])(
    'rejects with RequestAbortedError when its signal fires with %s during a pause at a second attempt, the reason untouched',
    async (_, reason) => {
      let answered = 0;
      const { wallet } = await rateLimited(async (reference) => {
        if (reference !== 'r_0') return undefined;
        return answered++ === 0
          ? Response.json({ status: 'error', message: 'busy' }, { status: 503 })
          : slowDown(15);
      });
      const controller = new AbortController();
      const after = track(
        collect(wallet.charges.verifyMany(refs(3), { concurrency: 1, signal: controller.signal })),
      );
      await after(2_000);
      expect(answered).toBe(2);
      controller.abort(reason);
      const { settled, error } = await after(1);
      expect(settled).toBe(true);
      expect(error).toBeInstanceOf(RequestAbortedError);
      if (reason !== null) expect(reason).toMatchObject({ attempts: 1, message: 'gone after 1 attempt' });
    },
  );

  it('sends nothing more and holds no timer once its caller leaves the loop during a pause', async () => {
    const { wallet, stats } = await rateLimited(async (reference) =>
      reference === 'r_1' && stats.verifies === 2 ? slowDown(15) : undefined,
    );
    const run = wallet.charges.verifyMany(refs(20), { concurrency: 2 });
    const first = track(run.next());
    expect((await first(100)).value?.value?.reference).toBe('r_0');
    const sent = stats.verifies;
    await track(run.return(undefined))(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stats.verifies).toBe(sent);
  });

  it('holds no timer once its caller leaves the loop while a row backs off after a 503', async () => {
    const { wallet, stats } = await rateLimited(async (reference) =>
      reference === 'r_1' ? Response.json({ status: 'error', message: 'busy' }, { status: 503 }) : undefined,
    );
    const run = wallet.charges.verifyMany(refs(20), { concurrency: 2 });
    expect((await track(run.next())(1)).value?.value?.reference).toBe('r_0');
    const sent = stats.verifies;
    await track(run.return(undefined))(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stats.verifies).toBe(sent);
  });
});

describe('reconcile under a Retry-After longer than maxWait', () => {
  it('gives the unsent rows the verdict error with the reason, and sends none of them', async () => {
    const { wallet, stats } = await rateLimited(async () => slowDown(3_600));
    const ledger = refs(12).map((reference) => ({ reference, amount: 5_000, status: 'paid' as const }));
    const after = track(collect(wallet.charges.reconcile(ledger, { concurrency: 2, maxWait: 300_000 })));
    const { value } = await after(100);
    expect(value?.map((l) => l.verdict)).toEqual(ledger.map(() => 'error'));
    expect(stats.verifies).toBeLessThanOrEqual(2);
    expect(value?.[11]?.detail).toMatch(/^Not sent: .*longer than this run's maxWait of 300 s/);
  });

  it('rejects with RequestAbortedError when its signal fires with null during a pause', async () => {
    const { wallet } = await rateLimited(async (reference) =>
      reference === 'r_0' ? slowDown(15) : undefined,
    );
    const ledger = refs(3).map((reference) => ({ reference, amount: 5_000, status: 'paid' as const }));
    const controller = new AbortController();
    const after = track(
      collect(wallet.charges.reconcile(ledger, { concurrency: 1, signal: controller.signal })),
    );
    await after(1_000);
    controller.abort(null);
    const { settled, error } = await after(1);
    expect(settled).toBe(true);
    expect(error).toBeInstanceOf(RequestAbortedError);
  });
});
