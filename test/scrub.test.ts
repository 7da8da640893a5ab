import { inspect } from 'node:util';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { TEST_KEY } from './helpers/mock-service.js';

const part = TEST_KEY.slice('sk_test_'.length);
const forms: [string, string][] = [
  ['as is', TEST_KEY],
  ['JSON-escaped with \\u005f', TEST_KEY.replaceAll('_', '\\u005f')],
  [
    'with every character \\u-escaped',
    [...TEST_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  ],
  ['percent-encoded', [...TEST_KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
  ['as a 12-character fragment', part.slice(5, 17)],
  ['as a fragment with JSON-escaped slashes around it', `\\/${part.slice(3, 18)}\\/`],
  // A gateway's error page that repeats the header it complains about, upper- or lower-cased.
  ['upper-cased', `AUTHORIZATION: BEARER ${TEST_KEY.toUpperCase()}`],
  ['lower-cased', `authorization: bearer ${TEST_KEY.toLowerCase()}`],
  ['in hex', Buffer.from(`Bearer ${TEST_KEY}`).toString('hex')],
  ['in upper-case hex', Buffer.from(TEST_KEY).toString('hex').toUpperCase()],
];
// What must never be seen: the key, its part after the prefix, or any 12 characters of it.
function expectNoSecret(text: string) {
  for (let i = 0; i + 12 <= part.length; i++) expect(text).not.toContain(part.slice(i, i + 12));
  // Nor any 12 of them in another letter case, or in hex (24 digits).
  const lower = text.toLowerCase();
  const hex = Buffer.from(part).toString('hex');
  for (let i = 0; i + 12 <= part.length; i++) {
    expect(lower).not.toContain(part.slice(i, i + 12).toLowerCase());
    expect(lower).not.toContain(hex.slice(2 * i, 2 * i + 24));
  }
}

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function surfaces(error: unknown, lines: string[]): string {
  const e = error as Error & { body?: unknown; headers?: unknown };
  return [e.message, e.stack, inspect(e, { depth: 12, showHidden: true }), JSON.stringify(e), ...lines].join(
    '\n',
  );
}

describe('the scrubber removes the key in every form a server may echo it', () => {
  it.each(forms)('%s, from message, stack, body, headers, inspect, JSON and logs', async (_, echoed) => {
    server = await loopback((_req, res) =>
      json(
        res,
        400,
        { status: 'error', message: `Bad key ${echoed}`, echo: { deep: [echoed] } },
        { 'x-echo': echoed },
      ),
    );
    const lines: string[] = [];
    const write = (m: string, d?: unknown) => lines.push(`${m} ${inspect(d, { depth: 9 })}`);
    const wallet = server.wallet({
      logLevel: 'debug',
      logger: { debug: write, info: write, warn: write, error: write },
    });
    const error = await wallet.refunds.create({ reference: 'order_1042' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BadRequestError' });
    expect((error as Error).message).toContain('[redacted]');
    expectNoSecret(surfaces(error, lines));
  });

  it('in an HTML page that echoes the key, so the excerpt carries none of it', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html><body><p>upstream rejected Bearer ${TEST_KEY}</p></body></html>`);
    });
    const error = await server
      .wallet({ maxRetries: 0 })
      .charges.verify('r')
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('HTTP 502 Bad Gateway: upstream rejected Bearer [redacted]');
    expectNoSecret(surfaces(error, []));
  });

  it('in the cause of a MockAgent error that embeds the request headers, and in the retry log', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://api.wallet.test')
      .intercept({ path: '/v1/charges/verify/r', method: 'GET', headers: { authorization: 'Bearer other' } })
      .reply(200, {});
    const lines: string[] = [];
    const write = (m: string, d?: unknown) => lines.push(`${m} ${inspect(d, { depth: 9 })}`);
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: 'https://api.wallet.test',
      dispatcher: agent,
      maxRetries: 1,
      logLevel: 'debug',
      logger: { debug: write, info: write, warn: write, error: write },
    });
    const error = await wallet.charges.verify('r').catch((e: unknown) => e);
    expect((error as Error).cause).toMatchObject({ code: 'UND_MOCK_ERR_MOCK_NOT_MATCHED' });
    expect(inspect((error as Error).cause)).toContain('[redacted]');
    expectNoSecret(surfaces(error, lines));
    await agent.close();
  });

  it('in a header name and in a Content-Encoding the SDK cannot decode, which its message quotes', async () => {
    server = await loopback((req, res) => {
      const auth = String(req.headers.authorization);
      res.writeHead(req.url!.endsWith('/named') ? 400 : 200, {
        [`x-${auth.slice('Bearer '.length)}`]: '1',
        'content-encoding': auth.replace(' ', '-'),
      });
      res.end('x');
    });
    const wallet = server.wallet({ maxRetries: 0 });
    const named = await wallet.charges.verify('named').catch((e: unknown) => e);
    expect(named).toMatchObject({ name: 'BadRequestError', headers: { 'x-[redacted]': '1' } });
    const encoded = await wallet.charges.verify('encoded').catch((e: unknown) => e);
    expect(encoded).toMatchObject({ name: 'ResponseValidationError' });
    expect((encoded as Error).message).toContain('Content-Encoding "bearer-[redacted]"');
    for (const error of [named, encoded]) expectNoSecret(surfaces(error, []));
  });

  it("in the code of a fetch's error, which the message names", async () => {
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: 'https://api.wallet.test',
      maxRetries: 0,
      fetch: (_url, init) => {
        const code = (init.headers as Record<string, string>).authorization;
        return Promise.reject(Object.assign(new Error('refused by the egress filter'), { code }));
      },
    });
    const error = await wallet.charges.verify('r').catch((e: unknown) => e);
    expect((error as Error).message).toContain('(Bearer [redacted])');
    expectNoSecret(surfaces(error, []));
  });

  it('leaves text alone that only shares short runs with the key', async () => {
    const near = `${part.slice(0, 11)} and ${part.slice(11, 22)}`;
    server = await loopback((_req, res) => json(res, 404, { status: 'error', message: near }));
    const error = await server
      .wallet()
      .charges.verify('r')
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(near);
  });
});

describe('validation messages', () => {
  it('never repeat the key a merchant passed where it does not belong', async () => {
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://api.wallet.test' });
    const error = await wallet.charges
      .resolveHandle({ handle: '@ada', amount: TEST_KEY as never, reference: 'r' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError' });
    expectNoSecret(surfaces(error, []));
    const construction = (() => {
      try {
        return new Wallet({
          apiKey: TEST_KEY,
          baseUrl: 'https://api.wallet.test',
          defaultHeaders: { [TEST_KEY]: '\n' },
        });
      } catch (e) {
        return e;
      }
    })();
    expect(construction).toMatchObject({ name: 'ValidationError' });
    expectNoSecret(surfaces(construction, []));
  });
});
