/**
 * A merchant's interceptor may hand a request on and then throw (a metrics counter that fails
 * after `dispatch(opts, handler)`). The SDK cannot see whether it did, so the account it gives
 * must match what the service saw: either nothing reached the service and the error says so, or
 * the POST may have been written and the error says its outcome is unknown, with the key to retry.
 */
import { createHash } from 'node:crypto';
import * as undici from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { dispatched, TEST_KEY } from './helpers/mock-service.js';
import { json, loopback } from './helpers/loopback.js';

const service = await loopback((_req, res) => json(res, 200, { status: 'success', data: dispatched }));
afterAll(() => service.close());

const DISPATCH = { reference: 'order_1042', bankId: 'bnk_01', authChannel: 'wallet_push' } as const;

// Forwards every request, then throws on a POST.
const throwsAfterForwarding: undici.Dispatcher.DispatcherComposeInterceptor =
  (dispatch) => (opts, handler) => {
    const accepted = dispatch(opts, handler);
    if (opts.method === 'POST') throw new Error('metrics: counter overflow');
    return accepted;
  };

async function dispatchThrough(warm: boolean) {
  const agent = new undici.Agent();
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: service.url,
    dispatcher: agent.compose(throwsAfterForwarding),
    maxRetries: 0,
  });
  // A verify first leaves a connected socket, on which undici writes a request at once.
  if (warm) await wallet.charges.verify('order_1042').catch(() => undefined);
  const before = service.received.filter((r) => r.method === 'POST').length;
  const error = (await wallet.charges.dispatch(DISPATCH).catch((e: unknown) => e)) as Record<string, unknown>;
  await new Promise((resolve) => setTimeout(resolve, 100)); // what undici still had queued
  await agent.close();
  return { error, posts: service.received.filter((r) => r.method === 'POST').length - before };
}

describe('an interceptor that throws after handing a POST on', () => {
  for (const warm of [false, true]) {
    it(`never says "nothing was sent" about a POST the service received (${warm ? 'a connected socket' : 'no socket yet'})`, async () => {
      const { error, posts } = await dispatchThrough(warm);
      expect(error.idempotencyKey).toEqual(expect.any(String));
      if (posts > 0) {
        expect(error.outcomeUnknown).toBe(true);
        expect(String(error.message)).not.toContain('Nothing was sent');
      } else {
        expect(error.outcomeUnknown).toBe(false);
        expect(String(error.message)).toContain('Nothing was sent');
      }
    });
  }
});

describe('an interceptor whose own bug throws while the answer comes in', () => {
  // A body-hashing interceptor passing undefined: Node throws a TypeError coded ERR_INVALID_ARG_TYPE.
  const hashing: undici.Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onResponseStart: (controller, status, headers, message) =>
        handler.onResponseStart?.(controller, status, headers, message),
      onResponseData: (controller, chunk) => {
        handler.onResponseData?.(controller, chunk);
        createHash('sha256').update(undefined as never);
      },
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    });

  it('never says "nothing was sent" about a POST the service answered', async () => {
    const agent = new undici.Agent();
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: service.url,
      dispatcher: agent.compose(hashing),
      maxRetries: 0,
    });
    const before = service.received.length;
    const error = (await wallet.charges.dispatch(DISPATCH).catch((e: unknown) => e)) as Record<
      string,
      unknown
    >;
    await agent.close();
    expect(service.received.length - before).toBe(1);
    expect(error).toMatchObject({ name: 'ConnectionError', outcomeUnknown: true });
    expect(String(error.message)).not.toContain('Nothing was sent');
  });
});

describe('a dispatcher that starts a POST and then throws an error carrying another answer', () => {
  it('never reads the thrown error as this POST’s answer: its outcome stays unknown', async () => {
    // Another call's undici ResponseError (a 429: "nothing done"), thrown after the request started;
    // a controller whose abort hands the reason back, as undici's does.
    const foreign = Object.assign(new Error('Response Error'), {
      code: 'UND_ERR_RESPONSE',
      statusCode: 429,
      headers: { 'retry-after': '1', 'content-type': 'application/json' },
      body: { status: 'error', message: 'slow down' },
    });
    const dispatcher = {
      dispatch(_opts: unknown, handler: undici.Dispatcher.DispatchHandler): boolean {
        const controller = {
          aborted: false,
          paused: false,
          reason: null as Error | null,
          abort(reason: Error) {
            controller.aborted = true;
            handler.onResponseError?.(controller, reason);
          },
          pause() {},
          resume() {},
        };
        handler.onRequestStart?.(controller, {});
        throw foreign;
      },
    };
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: service.url,
      dispatcher: dispatcher as unknown as undici.Dispatcher,
      maxRetries: 0,
    });
    const error = (await wallet.charges.dispatch(DISPATCH).catch((e: unknown) => e)) as Record<
      string,
      unknown
    >;
    expect(error.outcomeUnknown).toBe(true);
    expect(String(error.message)).not.toContain('slow down');
  });
});
