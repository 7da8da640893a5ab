/**
 * A merchant's own undici, of either current major, passed as `dispatcher`: the SDK speaks undici's
 * public handler interface (`onRequestStart` … `onResponseError`), which undici 7 and 8 both
 * accept, so an `Agent`, a `Pool`, a `ProxyAgent`, a `MockAgent` and a `compose()` chain with an
 * interceptor each carry a verify and a POST, and a failure keeps its truthful outcome. undici 8
 * needs Node >= 22.19 (it does not load on Node 20): there its half is skipped, loudly; CI runs
 * this file on Node 22, 24 and 26 too.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici7 from 'undici';
import type * as Undici8 from 'undici8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConnectionError,
  ConnectionTimeoutError,
  RateLimitError,
  RequestAbortedError,
  Wallet,
  type Dispatcher,
} from '@wallet/node';
import { paid, refunded, TEST_KEY } from './helpers/mock-service.js';
import { startProxy, type TestProxy } from './proxy/proxies.js';

// One runtime shape for both majors; the types of undici 8 are checked on their own (`typed`).
type Undici = typeof undici7;

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const undici8Runs = major > 22 || (major === 22 && minor >= 19);
async function loadUndici8(): Promise<Undici | undefined> {
  if (undici8Runs) return (await import('undici8')) as unknown as Undici;
  console.warn(
    `[merchant-dispatchers] SKIPPED undici 8: it requires Node >= 22.19 and this is Node ${process.versions.node}; ` +
      'run this file on Node 22, 24 or 26 (npx -y node@26 node_modules/vitest/vitest.mjs run test/merchant-dispatchers.test.ts).',
  );
  return undefined;
}
const undici8 = await loadUndici8();

// The types too: either major's dispatchers are what the `dispatcher` option takes.
export const typed: Dispatcher[] = [new undici7.Agent(), {} as Undici8.Agent, {} as Undici8.MockAgent];

interface Seen {
  method: string;
  path: string;
  key: string | undefined;
  via: string | undefined;
}

let origin = '';
const seen: Seen[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const key = req.headers['x-idempotency-key'];
    const via = req.headers['x-via'];
    // The error status this call is to be answered with; a list answers each try of one key in turn
    // ('503,429'); 'stall' reads the request and never answers.
    const answer = req.headers['x-answer'];
    seen.push({
      method: req.method ?? '',
      path: req.url ?? '',
      key: typeof key === 'string' ? key : undefined,
      via: typeof via === 'string' ? via : undefined,
    });
    if (typeof answer === 'string') {
      const list = answer.split(',');
      const tries = seen.filter((s) => key !== undefined && s.key === key).length || 1;
      const status = list[Math.min(tries, list.length) - 1]!;
      if (status === 'stall') return;
      res.writeHead(Number(status), { 'content-type': 'application/json', 'retry-after': '1' });
      return res.end(JSON.stringify({ status: 'error', message: `refused with ${status}` }));
    }
    const data = req.method === 'POST' ? { ...refunded, reference: 'order_1042' } : paid;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', data }));
  });
});
let proxy: TestProxy;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => server.close(resolve));
});

const refund = { reference: 'order_1042', amount: 100_000 } as const;

/** A verify and a refund through `dispatcher`; what the service saw of them. */
async function exchange(dispatcher: object, baseUrl = origin) {
  const from = seen.length;
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl,
    dispatcher: dispatcher as Dispatcher,
    maxRetries: 0,
  });
  const charge = await wallet.charges.verify('order_1042');
  const refundDone = await wallet.refunds.create(refund).withResponse();
  await wallet.close();
  return { charge, refund: refundDone, seen: seen.slice(from) };
}

/** A refund the service refuses with `status`, through `dispatcher`: its error, and how often it was sent. */
async function refusedRefund(dispatcher: object, status: number | string, maxRetries = 2) {
  const from = seen.length;
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: origin,
    dispatcher: dispatcher as Dispatcher,
    maxRetries,
    defaultHeaders: { 'x-answer': String(status) },
  });
  const error = await wallet.refunds.create(refund).catch((e: unknown) => e);
  await wallet.close();
  return { error, sent: seen.length - from };
}

/**
 * A refund the service received and never answers, aborted by the merchant's signal with another
 * call's 429 as the reason (a batch aborted on its first failure): not this refund's answer.
 */
async function abortedInFlight(
  dispatcher: object | undefined,
  ResponseError: Undici['errors']['ResponseError'],
) {
  const from = seen.length;
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: origin,
    ...(dispatcher === undefined ? {} : { dispatcher: dispatcher as Dispatcher }),
    maxRetries: 0,
    defaultHeaders: { 'x-answer': 'stall' },
  });
  const batch = new AbortController();
  const other = new ResponseError('Response Error', 429, { headers: { 'retry-after': '1' }, body: {} });
  setTimeout(() => batch.abort(other), 200);
  const error = await wallet.refunds.create(refund, { signal: batch.signal }).catch((e: unknown) => e);
  await wallet.close();
  return { error, sent: seen.length - from };
}

function suite(name: string, load: () => Undici | undefined) {
  if (load() === undefined) return;
  describe(`a merchant's ${name} dispatcher`, () => {
    const u = (): Undici => load()!;

    it('Agent: a verify and a refund, the refund with its one key', async () => {
      const agent = new (u().Agent)();
      const result = await exchange(agent);
      await agent.close();
      expect(result.charge).toMatchObject({ reference: 'order_1042', amount: 500_000 });
      expect(result.refund.data).toMatchObject({ refundReference: 'rf_001', amount: 100_000 });
      expect(result.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
        'GET /v1/charges/verify/order_1042',
        'POST /v1/refunds',
      ]);
      expect(result.seen[1]!.key).toBe(result.refund.response.idempotencyKey);
    });

    it('Pool on the service origin', async () => {
      const pool = new (u().Pool)(origin);
      const result = await exchange(pool);
      await pool.close();
      expect(result.seen).toHaveLength(2);
      expect(result.refund.data.amount).toBe(100_000);
    });

    it('ProxyAgent: both calls through the proxy', async () => {
      const before = proxy.seen.length;
      const agent = new (u().ProxyAgent)(proxy.url);
      const result = await exchange(agent);
      await agent.close();
      expect(result.seen).toHaveLength(2);
      expect(proxy.seen.length).toBeGreaterThan(before);
    });

    it('MockAgent: the mocked answers, nothing on the network', async () => {
      const mock = new (u().MockAgent)();
      mock.disableNetConnect();
      const pool = mock.get('https://api.wallet.test');
      const json = { headers: { 'content-type': 'application/json' } };
      pool
        .intercept({ path: '/v1/charges/verify/order_1042', method: 'GET' })
        .reply(200, { status: 'success', data: paid }, json);
      pool
        .intercept({ path: '/v1/refunds', method: 'POST' })
        .reply(200, { status: 'success', data: { ...refunded, reference: 'order_1042' } }, json);
      const result = await exchange(mock, 'https://api.wallet.test');
      await mock.close();
      expect(result.charge.amount).toBe(500_000);
      expect(result.refund.data.refundReference).toBe('rf_001');
      expect(result.seen).toEqual([]);
    });

    it('compose() with an interceptor that adds a header: the service sees it on both calls', async () => {
      const agent = new (u().Agent)();
      const composed = agent.compose(
        (dispatch) => (options, handler) =>
          dispatch(
            { ...options, headers: { ...(options.headers as Record<string, string>), 'x-via': name } },
            handler,
          ),
      );
      const result = await exchange(composed);
      await agent.close();
      expect(result.seen.map((s) => s.via)).toEqual([name, name]);
    });

    // Both interceptors hand the answer on as an error (UND_ERR_REQ_RETRY, UND_ERR_RESPONSE).
    it('RetryAgent: a refund answered 429 is the rate limit, nothing done, not a lost connection', async () => {
      const agent = new (u().RetryAgent)(new (u().Agent)());
      const { error } = await refusedRefund(agent, 429, 0);
      await agent.close();
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, retryAfter: 1, outcomeUnknown: false });
    });

    it('compose(interceptors.responseError()): a refund refused 400 is final, sent once', async () => {
      const agent = new (u().Agent)();
      const { error, sent } = await refusedRefund(agent.compose(u().interceptors.responseError()), 400);
      await agent.close();
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ status: 400, outcomeUnknown: false, message: 'refused with 400' });
      expect(sent).toBe(1);
    });

    it("RetryAgent waiting out a 503's Retry-After: the call's timeout still ends the verify", async () => {
      const agent = new (u().RetryAgent)(new (u().Agent)());
      const wallet = new Wallet({
        apiKey: TEST_KEY,
        baseUrl: origin,
        dispatcher: agent,
        maxRetries: 0,
        timeout: 200,
        defaultHeaders: { 'x-answer': '503' }, // Retry-After: 1, five times over
      });
      const started = performance.now();
      const error = await wallet.charges.verify('order_1042').catch((e: unknown) => e);
      const took = performance.now() - started;
      await agent.destroy(); // its retries go on, the merchant's to stop
      expect(error).toBeInstanceOf(ConnectionTimeoutError);
      expect(took).toBeLessThan(3_000); // its five tries take 5 s
    });

    it('RetryAgent retrying POSTs: a refund whose call ended is not sent again by its next try', async () => {
      const agent = new (u().RetryAgent)(new (u().Agent)(), { methods: ['GET', 'POST'] });
      const wallet = new Wallet({
        apiKey: TEST_KEY,
        baseUrl: origin,
        dispatcher: agent,
        maxRetries: 0,
        timeout: 200,
        defaultHeaders: { 'x-answer': '503' }, // Retry-After: 1
      });
      const from = seen.length;
      const error = await wallet.refunds.create(refund).catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // past the agent's next try
      await agent.destroy();
      expect(error).toMatchObject({ outcomeUnknown: true });
      expect(seen.length - from).toBe(1);
    });

    it('RetryAgent retrying POSTs: a refund answered 429 or 400 after a try answered 503 is still of unknown outcome', async () => {
      // The 503 may have refunded: the last try's answer says only that this one did nothing.
      for (const [answers, Class] of [
        ['503,429', RateLimitError],
        ['503,400', BadRequestError],
      ] as const) {
        const agent = new (u().RetryAgent)(new (u().Agent)(), { methods: ['POST'], maxRetries: 1 });
        const { error, sent } = await refusedRefund(agent, answers, 0);
        await agent.close();
        expect(sent, answers).toBe(2);
        expect(error, answers).toBeInstanceOf(Class);
        expect(error, answers).toMatchObject({ outcomeUnknown: true });
      }
    });

    it("a refund in flight aborted by the merchant's signal with another call's ResponseError as its reason", async () => {
      for (const agent of [new (u().Agent)(), new (u().RetryAgent)(new (u().Agent)())]) {
        const { error, sent } = await abortedInFlight(agent, u().errors.ResponseError);
        await agent.destroy();
        expect(sent).toBe(1);
        expect(error).toBeInstanceOf(RequestAbortedError);
        expect(error).toMatchObject({ outcomeUnknown: true });
      }
    });

    it("a connection refused through the merchant's Agent: a ConnectionError, nothing sent", async () => {
      const agent = new (u().Agent)();
      const dead = new Wallet({
        apiKey: TEST_KEY,
        baseUrl: 'http://127.0.0.1:9',
        dispatcher: agent,
        maxRetries: 0,
      });
      const error = await dead.refunds.create(refund).catch((e: unknown) => e);
      await agent.close();
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ outcomeUnknown: false });
    });
  });
}

suite('undici 7', () => undici7);
suite('undici 8', () => undici8);

it("the SDK's own Agent: a refund in flight aborted with another call's ResponseError as the reason", async () => {
  const { error, sent } = await abortedInFlight(undefined, undici7.errors.ResponseError);
  expect(sent).toBe(1);
  expect(error).toBeInstanceOf(RequestAbortedError);
  expect(error).toMatchObject({ outcomeUnknown: true });
});

// On a Node undici 8 does not run on, the fact itself is what this Node proves.
if (!undici8Runs) {
  it(`undici 8 asks for a newer Node than ${process.versions.node} (CI runs its half on 22, 24 and 26)`, () => {
    const manifest = readFileSync(new URL('../node_modules/undici8/package.json', import.meta.url), 'utf8');
    expect((JSON.parse(manifest) as { engines: { node: string } }).engines.node).toMatch(/>=\s*22\.19/);
  });
}
