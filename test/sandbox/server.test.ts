import { afterEach, describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import type { Sandbox } from '@wallet/node/testing';

import { callHttp } from './http-helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

function track(sandbox: Sandbox): Sandbox {
  sandboxes.push(sandbox);
  return sandbox;
}

const resolveBody = { handle: '@ada', amount: 500_000, reference: 'order_1' };

describe('the loopback server', () => {
  it('checks the allow list against the socket address, not the in-process clientIp', async () => {
    const sandbox = track(createSandbox({ clientIp: '10.0.0.1', allowedIps: ['10.0.0.1'] }));
    const { url } = await sandbox.listen();
    const refused = await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body: resolveBody });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('127.0.0.1');

    sandbox.setAllowedIps(['127.0.0.1']);
    expect((await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body: resolveBody })).status).toBe(
      200,
    );
    expect(sandbox.requests.map((r) => [r.clientIp, r.status])).toEqual([
      ['127.0.0.1', 403],
      ['127.0.0.1', 200],
    ]);
  });

  it('lets another process play the customer through /_sandbox/ routes, and read what happened', async () => {
    const sandbox = track(createSandbox());
    const { url } = await sandbox.listen();
    await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body: resolveBody });
    await callHttp(url, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'order_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
    });
    const authorized = await callHttp(url, 'POST', '/_sandbox/charges/order_1/authorize', { apiKey: null });
    expect(authorized.status).toBe(200);
    expect(authorized.body.data.charge).toMatchObject({ status: 'SUCCESS', fee: 10_000 });

    const again = await callHttp(url, 'POST', '/_sandbox/charges/order_1/decline', { apiKey: null });
    expect(again).toMatchObject({ status: 409, body: { status: 'error' } });

    const state = await callHttp(url, 'GET', '/_sandbox/state', { apiKey: null });
    expect(state.body.data.debits).toEqual([
      expect.objectContaining({ reference: 'order_1', amount: 500_000 }),
    ]);

    expect((await callHttp(url, 'POST', '/_sandbox/reset', { apiKey: null })).status).toBe(200);
    expect(sandbox.charges).toEqual([]);
  });

  it('frees its port on close, and sandbox.close() stops every server it started', async () => {
    const sandbox = track(createSandbox());
    const first = await sandbox.listen();
    const second = await sandbox.listen();
    await first.close();
    await expect(fetch(`${first.url}/v1/charges/verify/x`)).rejects.toThrow();
    expect((await callHttp(second.url, 'GET', '/v1/charges/verify/x')).status).toBe(404);
    await sandbox.close();
    await expect(fetch(`${second.url}/v1/charges/verify/x`)).rejects.toThrow();
  });

  it('keeps a percent-encoded reference as one path segment', async () => {
    const sandbox = track(createSandbox());
    const { url } = await sandbox.listen();
    const reference = 'inv/2026?x=1#frag 50%';
    await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body: { ...resolveBody, reference } });
    await callHttp(url, 'POST', '/v1/charges/dispatch', {
      body: { reference, bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
    });
    const verified = await callHttp(url, 'GET', `/v1/charges/verify/${encodeURIComponent(reference)}`);
    expect(verified.body.data.reference).toBe(reference);
  });
});
