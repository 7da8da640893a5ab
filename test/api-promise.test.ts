/**
 * What a merchant's code sees of the promise every API method returns: a real Promise, the data
 * when awaited, the response beside it through withResponse(), and no stray rejection for a
 * caller who only asked for withResponse().
 */
import { describe, expect, it } from 'vitest';
import { BASE_URL, fail, http, mockService, ok, paid } from './helpers/mock-service.js';

const verifyRoute = `${BASE_URL}/v1/charges/verify/order_1042`;

describe('APIPromise', () => {
  it('is a real Promise, so instanceof checks and Promise utilities take it as one', async () => {
    const mock = mockService(http.get(verifyRoute, () => ok(paid)));
    const call = mock.wallet().charges.verify('order_1042');
    expect(call).toBeInstanceOf(Promise);
    expect(Object.prototype.toString.call(call)).toBe('[object APIPromise]');
    const [tx] = await Promise.all([call]);
    expect(tx.reference).toBe('order_1042');
    expect(await Promise.resolve(call)).toMatchObject({ status: 'SUCCESS' });
  });

  it('gives the data when awaited and the response beside it through withResponse()', async () => {
    const mock = mockService(http.get(verifyRoute, () => ok(paid)));
    const call = mock.wallet().charges.verify('order_1042');
    const { data, response } = await call.withResponse();
    expect(data.status).toBe('SUCCESS');
    expect(response).toMatchObject({ status: 200, attempts: 1 });
    expect((await call).status).toBe('SUCCESS');
    // then on the derived promise is a plain Promise, not another APIPromise.
    const derived = call.then((t) => t.amount);
    expect(derived.constructor).toBe(Promise);
    await expect(derived).resolves.toBe(paid.amount);
  });

  it('starts the call at once, even when nobody awaits it yet', async () => {
    const mock = mockService(http.get(verifyRoute, () => ok(paid)));
    const call = mock.wallet().charges.verify('order_1042');
    await call.withResponse();
    expect(mock.seen).toHaveLength(1);
  });

  it('rejects once, on the promise the caller holds, when only withResponse() is used', async () => {
    const mock = mockService(http.get(verifyRoute, () => fail(404, 'not found')));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(mock.wallet().charges.verify('order_1042').withResponse()).rejects.toMatchObject({
        name: 'NotFoundError',
      });
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('catch and finally see the error of the data', async () => {
    const mock = mockService(http.get(verifyRoute, () => fail(404, 'not found')));
    let finished = false;
    const caught = await mock
      .wallet()
      .charges.verify('order_1042')
      .finally(() => (finished = true))
      .catch((error: unknown) => (error as Error).name);
    expect(caught).toBe('NotFoundError');
    expect(finished).toBe(true);
  });
});
