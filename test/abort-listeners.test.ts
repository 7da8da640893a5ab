import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestAbortedError } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { paid } from './helpers/mock-service.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const success = { status: 'success', data: paid };

function warnings() {
  const seen: string[] = [];
  const listen = (warning: Error) => seen.push(warning.name);
  process.on('warning', listen);
  return {
    seen,
    async stop() {
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', listen);
      return seen;
    },
  };
}

describe('one abort listener per shared signal', () => {
  it('40 calls sharing one signal, with retries, print no MaxListenersExceededWarning and leave no listener', async () => {
    const watch = warnings();
    server = await loopback((_req, res, n) => {
      // The first 20 requests are told to retry, so calls also wait with the signal.
      if (n <= 20) json(res, 503, { status: 'error', message: 'busy' }, { 'retry-after': '0' });
      else setTimeout(() => json(res, 200, success), 20);
    });
    const wallet = server.wallet({ maxConnections: 64, maxRetries: 5 });
    const controller = new AbortController();
    const { signal } = controller;
    const calls = Array.from({ length: 40 }, () => wallet.charges.verify('order_1042', { signal }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(1);
    await Promise.all(calls);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(await watch.stop()).not.toContain('MaxListenersExceededWarning');
  });

  it('the shared listener still aborts every call under way, and none remains after', async () => {
    server = await loopback(() => undefined); // never answers
    const wallet = server.wallet();
    const controller = new AbortController();
    const watch = warnings();
    const calls = Array.from({ length: 15 }, () =>
      wallet.charges.verify('order_1042', { signal: controller.signal }).catch((e: unknown) => e),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const errors = await Promise.all(calls);
    for (const error of errors) expect(error).toBeInstanceOf(RequestAbortedError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await watch.stop()).not.toContain('MaxListenersExceededWarning');
  });
});
