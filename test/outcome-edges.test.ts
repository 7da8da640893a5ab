import diagnostics from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  ConnectionTimeoutError,
  Wallet,
  WaitTimeoutError,
  type RequestRetryMessage,
} from '@wallet/node';
import { FetchDispatcher, createSandbox } from '@wallet/node/testing';
import { json, loopback } from './helpers/loopback.js';
import { TEST_KEY, dispatched, paid } from './helpers/mock-service.js';

const undo: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of undo.splice(0).reverse()) await fn();
});

async function server(handler: Parameters<typeof loopback>[0]) {
  const s = await loopback(handler);
  undo.push(() => s.close());
  return s;
}

const dispatch = { reference: 'order_1042', bankId: 'bnk_01', authChannel: 'wallet_push' } as const;

describe('outcome truth at the edges', () => {
  it('a POST through a closed in-process dispatcher is refused once, as closed, outcome known', async () => {
    let answered = 0;
    const dispatcher = new FetchDispatcher(async () => {
      answered++;
      return Response.json({ status: 'success', data: dispatched });
    });
    await dispatcher.close();
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'http://localhost', dispatcher });
    const error = await wallet.charges.dispatch(dispatch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(error).toMatchObject({ attempts: 1, outcomeUnknown: false });
    expect(answered).toBe(0);
  });

  it('a sandbox stays usable in process after close(), as its comment and listen() promise', async () => {
    const sandbox = createSandbox();
    await sandbox.close();
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
    await expect(
      wallet.charges.resolveHandle({ handle: '@ada', amount: 500_000, reference: 'order_1' }),
    ).resolves.toMatchObject({ customer: { handle: '@ada' } });
  });

  it('a POST that timed out while queued for a pooled connection was never sent: outcome known', async () => {
    const s = await server((req, res) => {
      const delay = req.url?.endsWith('/slow') ? 2_000 : 0;
      const reference = decodeURIComponent(req.url!.split('/').pop()!);
      setTimeout(() => json(res, 200, { status: 'success', data: { ...paid, reference } }), delay);
    });
    const wallet = s.wallet({ maxConnections: 1, maxRetries: 0 });
    const holding = wallet.charges.verify('slow', { timeout: 10_000 });
    const queued = await wallet.charges.dispatch(dispatch, { timeout: 300 }).catch((e: unknown) => e);
    expect(queued).toBeInstanceOf(ConnectionTimeoutError);
    expect(queued).toMatchObject({ outcomeUnknown: false, attempts: 1 });
    await holding;
    expect(s.received.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('a retry event says the outcome is unknown once an attempt may have acted', async () => {
    const seen: { attempt: number; outcomeUnknown: boolean }[] = [];
    const onRetry = (message: unknown): void => {
      const m = message as RequestRetryMessage;
      seen.push({ attempt: m.attempt, outcomeUnknown: m.request.outcomeUnknown });
    };
    diagnostics.subscribe('wallet:request:retry', onRetry);
    undo.push(() => diagnostics.unsubscribe('wallet:request:retry', onRetry));
    const s = await server((_req, res, n) => {
      if (n === 1) return json(res, 503, { status: 'error', message: 'Busy' }, { 'retry-after': '0' });
      json(res, 200, { status: 'success', data: dispatched });
    });
    await s.wallet().charges.dispatch(dispatch);
    expect(seen).toEqual([{ attempt: 2, outcomeUnknown: true }]);
  });

  it('a reference that carries the key never brings it into an error message or endpoint', async () => {
    const s = await server((_req, res) => json(res, 404, { status: 'error', message: 'No such charge' }));
    const reference = `order_${TEST_KEY}`;
    const wallet = s.wallet({ maxRetries: 0 });
    const errors = [
      await wallet.charges.verify(reference).catch((e: unknown) => e),
      await wallet.refunds.create({ reference }).catch((e: unknown) => e),
    ];
    const part = TEST_KEY.slice('sk_test_'.length);
    for (const error of errors) {
      const shown = [
        (error as Error).message,
        (error as Error).stack,
        inspect(error, { depth: 8 }),
        JSON.stringify(error),
      ].join('\n');
      expect(shown).not.toContain(part.slice(0, 12));
    }
  });

  it('waitForOutcome never repeats the key from a reference in its timeout error', async () => {
    const pending = { ...paid, status: 'PENDING_AUTHORIZATION' };
    const s = await server((req, res) =>
      json(res, 200, {
        status: 'success',
        data: { ...pending, reference: decodeURIComponent(req.url!.split('/').pop()!) },
      }),
    );
    const reference = `order_${TEST_KEY}`;
    const error = await s
      .wallet()
      .charges.waitForOutcome(reference, { timeout: 300, pollInterval: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const shown = `${(error as Error).message}\n${JSON.stringify(error)}\n${inspect(error)}`;
    expect(shown).not.toContain(TEST_KEY.slice('sk_test_'.length, 20));
  });
});
