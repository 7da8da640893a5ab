/**
 * Secrets: the key never shows on any surface a merchant, a log pipeline or a bug report can see
 * (message, stack, cause chain, body, headers, util.inspect, JSON.stringify, every log line at
 * debug level), whatever form a server or a library echoes it in.
 */
import type http from 'node:http';
import { inspect } from 'node:util';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWalletError, Wallet, type ClientOptions } from '@wallet/node';
import { sendJson, startServer, type Arrived, type TestServer } from './helpers/server.js';
import { keyFormIn, recordingLogger, SECRET_KEY, SecretLedger } from './helpers/surfaces.js';
import { report } from './helpers/tools.js';

type Echo = (req: Arrived, res: http.ServerResponse) => void;

const bearer = (req: Arrived): string => String(req.headers.authorization ?? '');
const keyOf = (req: Arrived): string => bearer(req).replace(/^Bearer /, '');
const php = (text: string): string => JSON.stringify(text).replaceAll('/', '\\/');
const allEscaped = (text: string): string =>
  `"${[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
const plain =
  (status: number, text: string, type = 'text/plain'): ((res: http.ServerResponse) => void) =>
  (res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(text);
  };

const ECHOES: Record<string, Echo> = {
  'plain text 500 body': (req, res) => plain(500, `Unauthorized: ${bearer(req)}`)(res),
  'PHP-escaped JSON message (401)': (req, res) =>
    sendJson(res, 401, `{"status":"error","message":${php(`Invalid key ${keyOf(req)}`)}}`),
  'every character \\u-escaped (401)': (req, res) =>
    sendJson(res, 401, `{"status":"error","message":${allEscaped(keyOf(req))}}`),
  'underscore as \\u005f (400)': (req, res) =>
    sendJson(res, 400, `{"status":"error","message":"${keyOf(req).replaceAll('_', '\\u005f')}"}`),
  'nested debug field (400)': (req, res) =>
    sendJson(res, 400, {
      status: 'error',
      message: 'bad',
      debug: { request: { headers: { authorization: bearer(req) } } },
    }),
  'HTML 404': (req, res) => plain(404, `<html><p>key: ${keyOf(req)}</p></html>`, 'text/html')(res),
  'percent-encoded in HTML 502': (req, res) =>
    plain(502, `<p>retry with ?key=${encodeURIComponent(keyOf(req))}</p>`, 'text/html')(res),
  'success envelope with a broken field': (req, res) =>
    sendJson(res, 200, {
      status: 'success',
      data: { reference: keyOf(req), amount: 'x', echo: bearer(req) },
    }),
  'error envelope in a 200': (req, res) =>
    sendJson(res, 200, { status: 'error', message: `key=${keyOf(req)}` }),
  'response header on a 500': (req, res) =>
    sendJson(res, 500, { status: 'error', message: 'boom' }, { 'x-debug-auth': bearer(req) }),
  'header with a fragment on a 503': (req, res) =>
    sendJson(res, 503, { status: 'error', message: 'down' }, { 'x-trace': keyOf(req).slice(10, 24) }),
  'fragment of 14 characters in a 500 body': (req, res) =>
    plain(500, `partial ${keyOf(req).slice(12, 26)}`)(res),
  '429 message and Retry-After': (req, res) =>
    sendJson(res, 429, { status: 'error', message: `slow down ${keyOf(req)}` }, { 'retry-after': '0' }),
  'Location header of a 302': (req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:1/?k=${encodeURIComponent(keyOf(req))}` });
    res.end();
  },
  'JSON inside a JSON string (double-escaped)': (req, res) =>
    sendJson(res, 500, {
      status: 'error',
      message: JSON.stringify({ auth: bearer(req).replaceAll('/', '\\/') }),
    }),
  'Set-Cookie header on a 401': (req, res) =>
    sendJson(res, 401, { status: 'error', message: 'no' }, { 'set-cookie': `k=${keyOf(req)}; Path=/` }),
};

describe('secrets: the key is absent from every surface of every error and log line', () => {
  let server: TestServer;
  let echo: Echo = () => undefined;
  const ledger = new SecretLedger();
  let errors = 0;

  beforeAll(async () => {
    // `echo-N` as the reference picks the Nth echo, so the echo tests can run concurrently.
    const chosen = Object.values(ECHOES);
    server = await startServer((req, res) => {
      const n = /echo-(\d+)/.exec(`${req.url} ${req.body}`)?.[1];
      (n === undefined ? echo : chosen[Number(n)]!)(req, res);
    });
  });
  afterAll(async () => {
    await server.close();
    report('secrets', { errors, surfacesChecked: ledger.checked, leaks: ledger.leaks.length });
  });

  async function observe(label: string, options: ClientOptions, call: (w: Wallet) => Promise<unknown>) {
    const { sink, lines } = recordingLogger();
    const wallet = new Wallet({
      apiKey: SECRET_KEY,
      baseUrl: server.url,
      timeout: 1_000,
      logger: sink,
      logLevel: 'debug',
      ...options,
    });
    let error: unknown;
    try {
      await call(wallet);
    } catch (e) {
      error = e;
    }
    await wallet.close();
    const start = ledger.leaks.length;
    ledger.error(error, label);
    ledger.surfaces(lines.map((l) => ({ ...l, where: `${label} ${l.where}` })));
    ledger.surfaces([
      { where: `${label} inspect(wallet)`, text: inspect(wallet, { showHidden: true, depth: 8 }) },
      { where: `${label} JSON(wallet)`, text: JSON.stringify(wallet) },
    ]);
    errors++;
    return { error, leaks: ledger.leaks.slice(start) };
  }

  Object.keys(ECHOES).forEach((name, n) => {
    for (const call of ['verify', 'dispatch'] as const) {
      // Retried once, so the info-level retry line is among the surfaces.
      it.concurrent(`server echo: ${name} (${call})`, async () => {
        const reference = `echo-${n}`;
        const { error, leaks } = await observe(`${name} ${call}`, { maxRetries: 1 }, (w) =>
          call === 'verify'
            ? w.charges.verify(reference)
            : w.charges.dispatch({ reference, bankId: 'bnk_01', authChannel: 'wallet_push' }),
        );
        expect(isWalletError(error)).toBe(true);
        expect(leaks).toEqual([]);
      });
    }
  });

  it("undici's MockAgent as dispatcher: its not-matched error (which lists request headers) stays scrubbed", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://127.0.0.1:9')
      .intercept({ path: '/v1/charges/verify/order_1', method: 'GET', headers: { 'x-tenant': 'a' } })
      .reply(200, {});
    const { error, leaks } = await observe(
      'MockAgent not matched',
      { baseUrl: 'http://127.0.0.1:9', dispatcher: agent, maxRetries: 1 },
      (w) => w.charges.verify('order_1'),
    );
    await agent.close();
    expect(isWalletError(error)).toBe(true);
    expect(leaks).toEqual([]);
  });

  it('a dispatcher whose own error repeats the key: scrubbed in the cause chain and the retry log', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://127.0.0.1:9')
      .intercept({ path: '/v1/charges/dispatch', method: 'POST' })
      .replyWithError(new Error(`socket hang up while sending Bearer ${SECRET_KEY}`))
      .times(3);
    const { error, leaks } = await observe(
      'MockAgent replyWithError',
      { baseUrl: 'http://127.0.0.1:9', dispatcher: agent, maxRetries: 1 },
      (w) => w.charges.dispatch({ reference: 'order_1', bankId: 'bnk_01', authChannel: 'wallet_push' }),
    );
    await agent.close();
    expect(isWalletError(error)).toBe(true);
    expect(leaks).toEqual([]);
  });

  it('connection refused and timeouts: no key on any surface', async () => {
    const refused = await observe('refused', { baseUrl: 'http://127.0.0.1:1', maxRetries: 1 }, (w) =>
      w.refunds.create({ reference: 'order_1' }),
    );
    echo = () => undefined;
    const timedOut = await observe('timeout', { timeout: 200, maxRetries: 0 }, (w) =>
      w.charges.verify('order_1'),
    );
    expect(isWalletError(refused.error) && isWalletError(timedOut.error)).toBe(true);
    expect([...refused.leaks, ...timedOut.leaks]).toEqual([]);
  });

  it('a header value the HTTP layer refuses (Yoruba shop name in appInfo) gives an error without the key', async () => {
    echo = (_req, res) => sendJson(res, 200, { status: 'success', data: {} });
    let construction: unknown;
    let result: { error: unknown; leaks: string[] } = { error: undefined, leaks: [] };
    try {
      result = await observe('appInfo Ṣọ́pù', { appInfo: { name: 'Ṣọ́pù Adé' }, maxRetries: 1 }, (w) =>
        w.charges.verify('order_1'),
      );
    } catch (e) {
      construction = e;
      ledger.error(e, 'appInfo construction');
    }
    const error = construction ?? result.error;
    expect(isWalletError(error)).toBe(true);
    expect(result.leaks).toEqual([]);
  });

  const badKeys: Record<string, unknown> = {
    'trailing space': `${SECRET_KEY} `,
    'inner newline': SECRET_KEY.replace('Hp', 'H\np'),
    'publishable prefix': SECRET_KEY.replace('sk_', 'pk_'),
    'misspelt prefix': SECRET_KEY.replace('sk_test_', 'sk_tset_'),
    'non-ASCII letter': `${SECRET_KEY}é`,
    'as an array': [SECRET_KEY],
    'as an object': { key: SECRET_KEY },
    'quoted from an env file': `"${SECRET_KEY}"`,
  };
  for (const [name, apiKey] of Object.entries(badKeys)) {
    it(`construction with a malformed key (${name}) never repeats it`, () => {
      let error: unknown;
      try {
        new Wallet({ apiKey: apiKey as string, baseUrl: server.url });
      } catch (e) {
        error = e;
      }
      const start = ledger.leaks.length;
      ledger.error(error, `bad key ${name}`);
      expect(isWalletError(error)).toBe(true);
      expect(ledger.leaks.slice(start)).toEqual([]);
    });
  }

  it('the detector itself finds every form it is meant to (so a clean result means something)', () => {
    const part = SECRET_KEY.slice(8);
    for (const form of [
      SECRET_KEY,
      php(SECRET_KEY),
      allEscaped(SECRET_KEY),
      encodeURIComponent(SECRET_KEY),
      part.slice(3, 15),
      JSON.stringify(php(SECRET_KEY)),
    ]) {
      expect(keyFormIn(`x ${form} y`), form).toBeDefined();
    }
    expect(keyFormIn(part.slice(3, 14))).toBeUndefined();
  });

  it('at least 500 surfaces were checked, with no leak', () => {
    expect(ledger.leaks).toEqual([]);
    expect(ledger.checked).toBeGreaterThanOrEqual(500);
  });
});
