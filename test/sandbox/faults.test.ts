import { afterEach, describe, expect, it } from 'vitest';

import { RateLimitError, Wallet } from '@wallet/node';
import type { Sandbox } from '@wallet/node/testing';

import { TEST_KEY, buildRequest, callHttp, callSandbox } from './http-helpers.js';
import { trackSandboxes } from './tracked.js';

// Registered first, so its afterEach runs last: the wallets close before their sandboxes.
const track = trackSandboxes();
const wallets: Wallet[] = [];
afterEach(async () => {
  await Promise.all(wallets.splice(0).map((w) => w.close()));
});

async function statuses(sandbox: Sandbox, count: number): Promise<(number | string)[]> {
  const seen: (number | string)[] = [];
  for (let i = 0; i < count; i++) {
    const response = await sandbox.fetch(
      new Request(`${sandbox.baseUrl}/v1/charges/verify/nope`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      }),
    );
    seen.push(response.type === 'error' ? 'reset' : response.status);
  }
  return seen;
}

describe('fault injection', () => {
  it('fails a seeded share of requests with 5xx and resets, the same way for the same seed', async () => {
    const faults = { failRate: 0.3, seed: 42 };
    const first = await statuses(track({ faults }), 400);
    const second = await statuses(track({ faults }), 400);
    expect(second).toEqual(first);
    const failed = first.filter((s) => s !== 404).length;
    expect(failed / first.length).toBeGreaterThan(0.22);
    expect(failed / first.length).toBeLessThan(0.38);
    expect(new Set(first)).toEqual(new Set([404, 500, 502, 503, 'reset']));
    const other = await statuses(track({ faults: { ...faults, seed: 7 } }), 400);
    expect(other).not.toEqual(first);
  });

  it('logs the faults in the request record', async () => {
    const sandbox = track({ faults: { failRate: 1, kinds: ['error'] } });
    const answer = await callSandbox(sandbox, 'GET', '/v1/charges/verify/nope');
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(sandbox.requests[0]).toMatchObject({ fault: 'error', status: answer.status });
  });

  it('records no fault on a path the front server answers: the 404 was not injected', async () => {
    const sandbox = track({ faults: { failRate: 1, kinds: ['reset-after'] } });
    // A wrong base URL: the front server answers 404, the service (and its faults) never see it.
    const request = buildRequest(sandbox.baseUrl, 'POST', '/api/v1/refunds', {
      body: { reference: 'order_1' },
    });
    const answer = await sandbox.fetch(request);
    expect([answer.status, await answer.text()]).toEqual([404, 'Not Found\n']);
    expect(sandbox.requests[0]).toMatchObject({ status: 404, fault: null });
  });

  it('delays every answer by the latency, in a seeded range', async () => {
    const sandbox = track({ faults: { latency: [40, 60] } });
    const started = performance.now();
    await callSandbox(sandbox, 'GET', '/v1/charges/verify/nope');
    expect(performance.now() - started).toBeGreaterThanOrEqual(39);
    expect(sandbox.requests[0]!.durationMs).toBeGreaterThanOrEqual(39);
  });

  it('never acts on a request still in its delay when the sandbox is reset or closed: the next test is clean', async () => {
    const sandbox = track({ faults: { latency: 2000 } });
    const resolve = (reference: string): Promise<Response> =>
      sandbox.fetch(
        buildRequest(sandbox.baseUrl, 'POST', '/v1/charges/resolve-handle', {
          body: { handle: '@ada', amount: 500_000, reference },
        }),
      );
    const started = performance.now();
    const beforeReset = resolve('order_1');
    sandbox.reset();
    const beforeClose = resolve('order_2');
    await sandbox.close();
    const answers = await Promise.all([beforeReset, beforeClose]);
    expect(answers.map((a) => a.status)).toEqual([410, 410]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sandbox.charges).toEqual([]);
  });

  it('answers a request cut by reset with a status the SDK does not retry: the call never acts in the next test', async () => {
    const sandbox = track({ faults: { latency: 2000 } });
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
    wallets.push(wallet);
    const other = track();
    const warm = new Wallet({ apiKey: TEST_KEY, baseUrl: other.baseUrl, dispatcher: other.dispatcher });
    wallets.push(warm);
    await warm.charges.verify('nope').catch(() => undefined); // the SDK's first-call cost, paid here
    const call = wallet.charges.resolveHandle({ handle: '@ada', amount: 10_000, reference: 'order_1' });
    const outcome = call.then(
      () => 'acted',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // in its delay
    sandbox.reset(); // the previous test ends here; what follows is the next test's sandbox
    expect(await outcome).toMatchObject({ status: 410, attempts: 1, outcomeUnknown: false });
    expect(sandbox.charges).toEqual([]);
  }, 10_000);

  it('answers a request cut by reset 410 even when its drawn fault was a dropped connection, which the SDK retries', async () => {
    const faults = { failRate: 1, kinds: ['reset-after'], latency: 1000 } as const;
    const sandbox = track({ faults });
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: sandbox.baseUrl,
      dispatcher: sandbox.dispatcher,
      maxRetries: 1,
    });
    wallets.push(wallet);
    const other = track();
    const warm = new Wallet({ apiKey: TEST_KEY, baseUrl: other.baseUrl, dispatcher: other.dispatcher });
    wallets.push(warm);
    await warm.charges.verify('nope').catch(() => undefined); // the SDK's first-call cost, paid here
    const call = wallet.charges.resolveHandle({ handle: '@ada', amount: 10_000, reference: 'order_1' });
    const outcome = call.catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300)); // in its delay
    sandbox.reset(); // the previous test ends here; what follows is the next test's sandbox
    expect(await outcome).toMatchObject({ status: 410, attempts: 1, outcomeUnknown: false });
    expect(sandbox.charges).toEqual([]);
  }, 10_000);

  it('keeps many requests in their delay at once without a listener-leak warning', async () => {
    const sandbox = track({ faults: { latency: 50 } });
    const warnings: string[] = [];
    const onWarning = (warning: Error): number => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const verifies = Array.from({ length: 12 }, () =>
        callSandbox(sandbox, 'GET', '/v1/charges/verify/nope'),
      );
      expect((await Promise.all(verifies)).map((a) => a.status)).toEqual(Array(12).fill(404));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('resets over loopback as a dropped connection', async () => {
    const sandbox = track({ faults: { failRate: 1, kinds: ['reset'] } });
    const { url } = await sandbox.listen();
    await expect(callHttp(url, 'GET', '/v1/charges/verify/nope')).rejects.toThrow(/fetch failed/);
  });

  it('lets the SDK prove its retry path: acted-then-reset refunds are retried with their key, never twice', async () => {
    const sandbox = track({ faults: { failRate: 0.5, kinds: ['reset-after', 'error', 'reset'], seed: 3 } });
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: sandbox.baseUrl,
      dispatcher: sandbox.dispatcher,
      maxRetries: 8,
    });
    wallets.push(wallet);
    // Resolve and dispatch through the faulty sandbox too: the SDK's retries get them through.
    const { linkedBanks } = await wallet.charges.resolveHandle({
      handle: '@ada',
      amount: 10_000,
      reference: 'order_f',
    });
    await wallet.charges.dispatch({
      reference: 'order_f',
      bankId: linkedBanks[0]!.bankId,
      authChannel: 'wallet_push',
    });
    await sandbox.authorize('order_f');
    const refunds = await Promise.all(
      Array.from({ length: 4 }, () => wallet.refunds.create({ reference: 'order_f', amount: 1000 })),
    );
    expect(refunds.every((r) => r.status === 'PROCESSED')).toBe(true);
    expect(sandbox.refunds).toHaveLength(4);
    expect(sandbox.charge('order_f')?.refundedAmount).toBe(4000);
    const acted = sandbox.requests.filter((r) => r.fault === 'reset-after');
    expect(acted.length).toBeGreaterThan(0);
    expect(sandbox.requests.some((r) => r.replayed)).toBe(true);
  }, 30_000);

  it('answers a rate-limit fault 429 with Retry-After in the seeded range, without acting', async () => {
    const faults = { failRate: 1, kinds: ['rate-limit'], retryAfter: [1, 3], seed: 5 } as const;
    const sandbox = track({ faults });
    const waits: string[] = [];
    for (let i = 0; i < 60; i++) {
      const answer = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
        body: { handle: '@ada', amount: 10_000, reference: `rl_${i}` },
      });
      expect(answer.status).toBe(429);
      expect(answer.body).toEqual({
        status: 'error',
        message: 'Injected rate limit: the sandbox did not act.',
      });
      waits.push(answer.headers.get('retry-after') ?? 'none');
    }
    expect(new Set(waits)).toEqual(new Set(['1', '2', '3']));
    expect(sandbox.charges).toEqual([]);
    expect(sandbox.requests.every((r) => r.fault === 'rate-limit' && r.status === 429)).toBe(true);
    // The same seed, the same waits.
    const again = track({ faults });
    const replayed: string[] = [];
    for (let i = 0; i < 60; i++) {
      const answer = await callSandbox(again, 'GET', '/v1/charges/verify/nope');
      replayed.push(answer.headers.get('retry-after') ?? 'none');
    }
    expect(replayed).toEqual(waits);
  });

  it('draws rate-limit faults only when kinds names them', async () => {
    const seen = await statuses(track({ faults: { failRate: 1, seed: 9 } }), 200);
    expect(seen).not.toContain(429);
  });

  it('gives the SDK a RateLimitError carrying the Retry-After it asked for', async () => {
    const sandbox = track({ faults: { failRate: 1, kinds: ['rate-limit'], retryAfter: 7 } });
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: sandbox.baseUrl,
      dispatcher: sandbox.dispatcher,
      maxRetries: 0,
    });
    wallets.push(wallet);
    const error = await wallet.charges.verify('order_rl').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(7);
  });

  it('refuses a Retry-After that is not whole seconds from 0 to 3600, or [min, max] of them', () => {
    for (const retryAfter of [1.5, -1, 3601, [3, 1], [0, 'x'], '2']) {
      expect(() => track({ faults: { retryAfter } as never })).toThrow(
        expect.objectContaining({ issues: [expect.objectContaining({ path: 'faults.retryAfter' })] }),
      );
    }
    expect(() => track({ faults: { retryAfter: [0, 3600] } })).not.toThrow();
  });

  it('refuses bad fault options by name', () => {
    expect(() =>
      track({ faults: { failRate: 2, latency: [50, 10], kinds: ['boom' as never], sede: 1 } as never }),
    ).toThrow(
      expect.objectContaining({
        name: 'ValidationError',
        issues: [
          { path: 'faults.failRate', message: 'must be from 0 to 1 (got 2)' },
          { path: 'faults.latency', message: 'must be [min, max] with min <= max' },
          { path: 'faults.kinds.0', message: 'must be one of error, reset, reset-after, rate-limit' },
          { path: 'faults.sede', message: "is not a known option (did you mean 'seed'?)" },
        ],
      }),
    );
  });
});
