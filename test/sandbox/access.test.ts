import { describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';

import { callSandbox } from './http-helpers.js';

const body = { handle: '@ada', amount: 500_000, reference: 'order_1' };

describe('authentication', () => {
  it('accepts any sk_test_ key', async () => {
    const answer = await callSandbox(createSandbox(), 'POST', '/v1/charges/resolve-handle', {
      body,
      apiKey: 'sk_test_anything',
    });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['a live key', 'sk_live_s3cretLive'],
    ['a key of no known kind', 'pk_test_s3cretPublic'],
    ['a bare prefix', 'sk_test_'],
    ['no key', null],
  ])('answers 401 to %s, without echoing the key', async (_, apiKey) => {
    const sandbox = createSandbox();
    const answer = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', { body, apiKey });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ status: 'error', message: expect.any(String) });
    expect(answer.body.message).not.toMatch(/s3cret/);
    expect(sandbox.charges).toEqual([]);
  });

  it('answers 401 to a live key on GET too', async () => {
    const answer = await callSandbox(createSandbox(), 'GET', '/v1/charges/verify/x', {
      apiKey: 'sk_live_abc',
    });
    expect(answer.status).toBe(401);
  });
});

describe('IP allow list', () => {
  it('answers 403 to a caller not on the list, and serves one that is', async () => {
    const sandbox = createSandbox({ allowedIps: ['10.0.0.7'] });
    const outside = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', { body });
    expect(outside.status).toBe(403);
    expect(outside.body).toEqual({ status: 'error', message: expect.stringContaining('127.0.0.1') });
    expect(sandbox.charges).toEqual([]);

    const inside = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', { body }, '10.0.0.7');
    expect(inside.status).toBe(200);
  });

  it('takes in-process callers to be clientIp, and can change the list at run time', async () => {
    const sandbox = createSandbox({ clientIp: '10.0.0.7', allowedIps: ['10.0.0.7'] });
    expect((await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', { body })).status).toBe(200);
    sandbox.setAllowedIps(['192.0.2.1']);
    expect((await callSandbox(sandbox, 'GET', '/v1/charges/verify/order_1')).status).toBe(403);
    sandbox.setAllowedIps(undefined);
    expect((await callSandbox(sandbox, 'GET', '/v1/charges/verify/order_1')).status).toBe(404);
  });
});

describe('request validation', () => {
  const cases: [string, { rawBody?: string; body?: unknown; headers?: Record<string, string> }][] = [
    ['malformed JSON', { rawBody: '{"handle": "@ada",' }],
    ['a JSON array', { body: [body] }],
    ['an empty body', { rawBody: '' }],
    ['an amount as a string', { body: { ...body, amount: '500000' } }],
    ['a fractional amount', { body: { ...body, amount: 1.5 } }],
    ['a missing reference', { body: { handle: '@ada', amount: 500_000 } }],
    ['an empty handle', { body: { ...body, handle: ' ' } }],
    [
      'a body that is not labelled JSON',
      { rawBody: JSON.stringify(body), headers: { 'content-type': 'text/plain' } },
    ],
  ];
  it.each(cases)('answers 400 with the error envelope to %s', async (_, options) => {
    const sandbox = createSandbox();
    const answer = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', options);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', message: expect.any(String) });
    expect(sandbox.charges).toEqual([]);
  });

  it('answers 400 to an authChannel it does not know', async () => {
    const sandbox = createSandbox();
    await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', { body });
    const answer = await callSandbox(sandbox, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'order_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_pos' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('wallet_push');
  });

  it('answers 404 to an unknown path and 405 to a known one with the wrong method', async () => {
    const sandbox = createSandbox();
    // A path no endpoint serves: a front server's plain 404, not the service's envelope.
    const unknown = await sandbox.fetch(new Request(`${sandbox.baseUrl}/v1/charges`));
    expect([unknown.status, await unknown.text()]).toEqual([404, 'Not Found\n']);
    expect((await callSandbox(sandbox, 'GET', '/v1/refunds')).status).toBe(405);
  });
});
