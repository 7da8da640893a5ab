/** The sandbox as a development server: its customers, control routes over HTTP, base path, keys per merchant and bounded history. */
import { afterEach, describe, expect, it } from 'vitest';

import { callHttp, callSandbox, paidCharge, resolveAndDispatch } from './http-helpers.js';
import { deliveringTo, startReceiver } from './receiver.js';
import type { Receiver } from './receiver.js';
import { trackSandboxes } from './tracked.js';

const track = trackSandboxes();
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
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
    // Outside the base path a front server answers, not the service: plain text, no envelope.
    const outside = await fetch(`${url.replace(/\/api$/, '')}/v1/charges/verify/order_b`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await outside.text()).toBe('Not Found\n');
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
