import { afterEach, describe, expect, it, vi } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import type { Sandbox, SandboxOptions } from '@wallet/node/testing';

import { callHttp, callSandbox, paidCharge, resolveAndDispatch } from './http-helpers.js';
import { authorizeAndSettle, deliveringTo, startReceiver } from './receiver.js';
import type { Receiver } from './receiver.js';

const sandboxes: Sandbox[] = [];
let receiver: Receiver | undefined;
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  await receiver?.close();
  receiver = undefined;
});

function track(options: SandboxOptions = {}): Sandbox {
  const sandbox = createSandbox(options);
  sandboxes.push(sandbox);
  return sandbox;
}

function recorder(): { lines: string[]; logger: { info(l: string): void; warn(l: string): void } } {
  const lines: string[] = [];
  return { lines, logger: { info: (l) => lines.push(`info ${l}`), warn: (l) => lines.push(`warn ${l}`) } };
}

const TIME = String.raw`\d\d:\d\d:\d\d\.\d{3}`;

describe('the development server log', () => {
  it('writes one line per request: time, method, path, status, idempotency key, replayed, duration', async () => {
    const { lines, logger } = recorder();
    const sandbox = track({ logger });
    const { url } = await sandbox.listen();
    const body = { handle: '@ada', amount: 500_000, reference: 'order_log' };
    await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body, idempotencyKey: 'key-1' });
    await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body, idempotencyKey: 'key-1' });
    await callHttp(url, 'GET', '/v1/charges/verify/nope');
    await callHttp(url, 'POST', '/_sandbox/charges/nope/expire', { apiKey: null });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(`^info ${TIME} POST /v1/charges/resolve-handle 200 key=key-1 \\d+ms$`),
    );
    expect(lines[1]).toMatch(
      new RegExp(`^info ${TIME} POST /v1/charges/resolve-handle 200 key=key-1 replayed \\d+ms$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^info ${TIME} GET /v1/charges/verify/nope 404 \\d+ms$`));
  });

  it('writes one line per delivery attempt, with the next retry, while authorize answers after the first', async () => {
    receiver = await startReceiver({ failFirst: 1 });
    const { lines, logger } = recorder();
    const sandbox = track({
      logger,
      ...deliveringTo(receiver.url, { attempts: 3, delayMs: 200, timeoutMs: 1000 }),
    });
    await resolveAndDispatch(sandbox, 'order_hook', 500_000);
    lines.length = 0;
    const { webhook } = await sandbox.authorize('order_hook');
    expect(lines[0]).toMatch(new RegExp(`^info ${TIME} customer authorize order_hook: SUCCESS$`));
    lines.shift();
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warn ${TIME} webhook charge.success order_hook -> ${receiver.url} 500 attempt 1/3 \\d+ms, next retry in \\d+ms \\(${TIME}\\)$`,
        ),
      ),
    ]);
    expect(sandbox.deliveries[0]?.nextRetryAt).not.toBeNull();
    await webhook?.settled;
    expect(lines[1]).toMatch(/^info .* 200 attempt 2\/3 \d+ms, delivered$/);
  });

  it('says when it gives up on an endpoint', async () => {
    const closed = await startReceiver();
    await closed.close();
    const { lines, logger } = recorder();
    const sandbox = track({
      logger,
      ...deliveringTo(closed.url, { attempts: 2, delayMs: 1, timeoutMs: 1000 }),
    });
    await resolveAndDispatch(sandbox, 'order_down', 100_000);
    await authorizeAndSettle(sandbox, 'order_down');
    expect(lines.at(-1)).toMatch(/ ECONNREFUSED attempt 2\/2 \d+ms, giving up$/);
  });

  it('logs while a listen({ logger }) server runs, and stops when it closes', async () => {
    const { lines, logger } = recorder();
    const sandbox = track();
    const server = await sandbox.listen({ logger });
    await callHttp(server.url, 'GET', '/v1/charges/verify/during');
    await server.close();
    await callSandbox(sandbox, 'GET', '/v1/charges/verify/after');
    expect(lines).toEqual([expect.stringMatching(/ GET \/v1\/charges\/verify\/during 404 \d+ms$/)]);
  });

  it('is off by default: a sandbox without a logger writes nothing to the console or stdout', async () => {
    const writes: unknown[] = [];
    const spies = [
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
        vi.spyOn(console, name).mockImplementation((...args) => void writes.push(args)),
      ),
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (writes.push(chunk), true)),
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (writes.push(chunk), true)),
    ];
    try {
      const sandbox = track();
      const { url } = await sandbox.listen();
      await resolveAndDispatch(sandbox, 'order_quiet', 100_000);
      await callHttp(url, 'GET', '/v1/charges/verify/order_quiet');
      await sandbox.authorize('order_quiet');
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    expect(writes).toEqual([]);
  });

  it('a logger that throws costs a line, not the request', async () => {
    let calls = 0;
    const sandbox = track({
      logger: {
        info: () => {
          calls += 1;
          throw new Error('disk full');
        },
        warn: () => {},
      },
    });
    const answer = await callSandbox(sandbox, 'GET', '/v1/charges/verify/nope');
    expect(answer.status).toBe(404);
    expect(calls).toBe(1);
  });

  it('escapes control characters from requests in every line, so a reference cannot forge one', async () => {
    const { lines, logger } = recorder();
    receiver = await startReceiver();
    const sandbox = track({ logger, ...deliveringTo(receiver.url, { attempts: 1, timeoutMs: 1000 }) });
    const { url } = await sandbox.listen();
    const forged = 'order_x\u001b[2K\r12:00:00.000 customer authorize order_1: SUCCESS\u2028\u202e\u0085';
    await resolveAndDispatch(sandbox, forged, 100_000);
    await callHttp(url, 'POST', `/_sandbox/charges/${encodeURIComponent(forged)}/authorize`, {
      apiKey: null,
    });
    await callHttp(url, 'GET', `/v1/charges/verify/${encodeURIComponent(forged)}`, {
      idempotencyKey: 'k\u0085\u00a0',
    });
    await sandbox.decline(forged).catch(() => undefined);
    sandbox.seed([{ reference: `${forged}_2`, amount: 1, status: 'FAILED' }]);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) {
      expect(line).not.toMatch(
        // eslint-disable-next-line no-control-regex -- no control character may reach a log line.
        /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
      );
    }
    expect(lines).toContainEqual(
      expect.stringContaining('customer authorize order_x\\x1b[2K\\x0d12:00:00.000 customer authorize'),
    );
    expect(
      lines.some((line) => line.includes('-> ') && line.includes('webhook charge.success order_x\\x1b')),
    ).toBe(true);
  });
});

describe('customers', () => {
  const chioma = {
    handle: '@chioma',
    phone: '+2348000000003',
    name: 'Chioma Obi',
    banks: [{ bankId: 'bnk_chioma_uba', bankName: 'UBA', bankCode: '033', accountNumber: '0011223344' }],
  };

  it('adds customers from the option, next to the defaults, resolvable by handle and phone', async () => {
    const sandbox = track({ customers: [chioma] });
    const byPhone = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '08000000003', amount: 1000, reference: 'order_c' },
    });
    expect(byPhone.body.data.customer.handle).toBe('@chioma');
    expect(byPhone.body.data.linkedBanks[0].accountNumberMasked).toBe('******3344');
    expect(sandbox.customers.map((c) => c.handle)).toEqual(['@ada', '@tunde', '@chioma']);
  });

  it('refuses bad customers with every problem named by field', () => {
    const bad = [
      { ...chioma, phone: 'call me' },
      { handle: '@x y', name: '' },
      { ...chioma, bank: [] },
    ];
    expect(() => track({ customers: bad as never })).toThrow(
      expect.objectContaining({
        name: 'ValidationError',
        issues: expect.arrayContaining([
          { path: 'customers.0.phone', message: expect.stringMatching(/phone number/) },
          { path: 'customers.1.handle', message: expect.stringMatching(/letters, digits/) },
          { path: 'customers.1.name', message: 'must not be empty' },
          { path: 'customers.1.phone', message: 'is required' },
          { path: 'customers.2.bank', message: "is not a known option (did you mean 'banks'?)" },
          { path: 'customers.2.handle', message: 'repeats @chioma' },
        ]),
      }),
    );
  });
});

describe('control routes over HTTP', () => {
  it('authorizes, then redelivers the last webhook of a charge; refuses what has none', async () => {
    receiver = await startReceiver();
    const sandbox = track(deliveringTo(receiver.url));
    const { url } = await sandbox.listen();
    await resolveAndDispatch(sandbox, 'order_r', 300_000);
    const authorized = await callHttp(url, 'POST', '/_sandbox/charges/order_r/authorize', { apiKey: null });
    expect(authorized.body.data.webhook).toMatchObject({ delivered: true, retrying: false });
    const again = await callHttp(url, 'POST', '/_sandbox/charges/order_r/redeliver', { apiKey: null });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ delivered: true, attempts: [{ attempt: 1, status: 200 }] });
    expect(receiver.handled.map((e) => (e.data as { reference: string }).reference)).toEqual([
      'order_r',
      'order_r',
    ]);
    expect(sandbox.debits).toHaveLength(1);

    await resolveAndDispatch(sandbox, 'order_p', 1000);
    const pending = await callHttp(url, 'POST', '/_sandbox/charges/order_p/redeliver', { apiKey: null });
    expect(pending.status).toBe(409);
    const unknown = await callHttp(url, 'POST', '/_sandbox/charges/nope/redeliver', { apiKey: null });
    expect(unknown.status).toBe(404);
    const declined = await callHttp(url, 'POST', '/_sandbox/charges/order_p/decline', { apiKey: null });
    expect(declined.body.data.status).toBe('FAILED');
  });

  it('answers authorize after a failing first attempt, with the retries visible in the state', async () => {
    receiver = await startReceiver({ failFirst: 1 });
    const sandbox = track(deliveringTo(receiver.url, { attempts: 2, delayMs: 300, timeoutMs: 1000 }));
    const { url } = await sandbox.listen();
    await resolveAndDispatch(sandbox, 'order_s', 300_000);
    const authorized = await callHttp(url, 'POST', '/_sandbox/charges/order_s/authorize', { apiKey: null });
    expect(authorized.body.data.webhook).toMatchObject({ delivered: false, retrying: true });
    const state = await callHttp(url, 'GET', '/_sandbox/state', { apiKey: null });
    expect(state.body.data.deliveries).toEqual([
      expect.objectContaining({ attempt: 1, status: 500, nextRetryAt: expect.any(String) }),
    ]);
  });
});

describe('routes under the path of baseUrl', () => {
  it('serves /api/v1/... for baseUrl .../api, in process and over loopback, and nothing outside it', async () => {
    const sandbox = track({ baseUrl: 'https://sandbox.wallet.test/api/' });
    expect(sandbox.baseUrl).toBe('https://sandbox.wallet.test/api');
    const inside = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '@ada', amount: 1000, reference: 'order_b' },
    });
    expect(inside.status).toBe(200);
    const { url } = await sandbox.listen();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect((await callHttp(url, 'GET', '/v1/charges/verify/order_b')).status).toBe(404);
    const outside = await callHttp(url.replace(/\/api$/, ''), 'GET', '/v1/charges/verify/order_b');
    expect(outside.status).toBe(404);
    expect(outside.body.message).toMatch(/serves under \/api/);
    const paid = await paidCharge(sandbox, 'order_b2', 1000).then(() => 'ok');
    expect(paid).toBe('ok');
    const control = await callHttp(url, 'POST', '/_sandbox/charges/order_b2/expire', { apiKey: null });
    expect(control.status).toBe(409);
  });
});

describe('idempotency per API key', () => {
  it('does not replay one merchant’s answer to another that picked the same key', async () => {
    const sandbox = track();
    const body = { handle: '@ada', amount: 1000, reference: 'order_k' };
    const first = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body,
      idempotencyKey: 'same',
      apiKey: 'sk_test_merchant_a',
    });
    const other = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { ...body, reference: 'order_k2' },
      idempotencyKey: 'same',
      apiKey: 'sk_test_merchant_b',
    });
    expect([first.status, other.status]).toEqual([200, 200]);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(sandbox.charges.map((c) => c.reference)).toEqual(['order_k', 'order_k2']);
  });
});

describe('bounded history', () => {
  it('keeps the newest historyLimit requests and delivery attempts', async () => {
    const sandbox = track({ historyLimit: 3 });
    for (let i = 0; i < 5; i++) await callSandbox(sandbox, 'GET', `/v1/charges/verify/order_${i}`);
    expect(sandbox.requests.map((r) => r.path)).toEqual([
      '/v1/charges/verify/order_2',
      '/v1/charges/verify/order_3',
      '/v1/charges/verify/order_4',
    ]);
  });

  it('forgets the oldest idempotency key past idempotencyKeyLimit', async () => {
    const sandbox = track({ idempotencyKeyLimit: 2 });
    const resolve = (reference: string, key: string) =>
      callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
        body: { handle: '@ada', amount: 1000, reference },
        idempotencyKey: key,
      });
    await resolve('order_1', 'k1');
    await resolve('order_2', 'k2');
    expect((await resolve('order_1', 'k1')).headers.get('idempotent-replayed')).toBe('true');
    await resolve('order_3', 'k3');
    expect((await resolve('order_1', 'k1')).headers.get('idempotent-replayed')).toBeNull();
    expect((await resolve('order_3', 'k3')).headers.get('idempotent-replayed')).toBe('true');
  });
});
