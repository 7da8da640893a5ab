/**
 * The `proxy` option and `NODE_USE_ENV_PROXY=1` with the proxy variables, through a real forward
 * proxy and a real CONNECT tunnel on loopback (test/proxy/proxies.ts): requests go where the
 * variables say, NO_PROXY is honoured, a proxy that refuses or cannot be reached is a
 * ConnectionError whose outcome is known (nothing reached the service), and the proxy's
 * credentials appear in no error, log line or inspect.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inspect, promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { ConnectionError, Wallet, type ClientOptions } from '../../src/index.js';
import { BASE_URL, http, HttpResponse, mockService } from '../helpers/mock-service.js';
import { CERT, loopback, startProxy } from './proxies.js';

const PASSWORD = 'pr0xy-s3cret-pw';

const { service, proxy, later } = loopback();

/** A client with `options` and `env` standing in for process.env, logging at debug into `lines`. */
function client(options: ClientOptions, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const sink = (line: string, details?: unknown) =>
    void lines.push(`${line} ${JSON.stringify(details ?? '')}`);
  const saved = { ...process.env };
  for (const name of [
    'HTTPS_PROXY',
    'https_proxy',
    'HTTP_PROXY',
    'http_proxy',
    'NO_PROXY',
    'no_proxy',
    'NODE_USE_ENV_PROXY',
  ])
    delete process.env[name];
  Object.assign(process.env, env);
  try {
    const wallet = new Wallet({
      apiKey: 'sk_test_proxy_4eC39HqLyjWDarjtT1zdp7dc',
      maxRetries: 0,
      logLevel: 'debug',
      logger: { debug: sink, info: sink, warn: sink, error: sink },
      ...options,
    });
    later(() => wallet.close());
    return { wallet, lines };
  } finally {
    process.env = saved;
  }
}

const refund = (wallet: Wallet) =>
  wallet.refunds
    .create({ reference: 'order_1042', amount: 100 }, { idempotencyKey: 'refund-1' })
    .catch((e: unknown) => e);

describe('through a forward HTTP proxy (an http: service)', () => {
  it('the proxy option sends absolute-form requests through the proxy, with its credentials', async () => {
    const target = await service(false);
    const forward = await proxy(`shop:${PASSWORD}`);
    const { wallet } = client({
      baseUrl: target.url,
      proxy: `http://shop:${PASSWORD}@127.0.0.1:${forward.port}`,
    });
    expect((await wallet.charges.verify('order_1042')).reference).toBe('order_1042');
    expect(forward.seen.map((s) => s.line)).toEqual([`GET ${target.url}/v1/charges/verify/order_1042`]);
    expect(forward.seen[0]!.auth).toBe(`Basic ${Buffer.from(`shop:${PASSWORD}`).toString('base64')}`);
    expect(target.hits).toHaveLength(1);
    expect(inspect(wallet, { depth: 10 }) + JSON.stringify(wallet)).not.toContain(PASSWORD);
  });

  it('a forward proxy answering 407: ConnectionError, outcome known (nothing reached the service)', async () => {
    const target = await service(false);
    const forward = await proxy(`shop:${PASSWORD}`);
    const { wallet } = client({
      baseUrl: target.url,
      proxy: `http://shop:wrong-${PASSWORD}@127.0.0.1:${forward.port}`,
    });
    const error = (await refund(wallet)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcomeUnknown).toBe(false);
    expect(target.hits).toEqual([]);
    expect(inspect(error, { depth: 20 }) + JSON.stringify(error)).not.toContain(PASSWORD);
  });

  it("a proxy's error page echoing the request: its credentials are scrubbed from the error", async () => {
    const target = await service(false);
    const echoing = await proxy(undefined, true);
    const { wallet, lines } = client({
      baseUrl: target.url,
      proxy: `http://shop:${PASSWORD}@127.0.0.1:${echoing.port}`,
    });
    const error = (await wallet.charges.verify('order_1042').catch((e: unknown) => e)) as Error;
    const surfaces =
      inspect(error, { depth: 20 }) + JSON.stringify(error) + String(error.stack) + lines.join('\n');
    expect(surfaces).toContain('proxy-authorization'); // the page did echo the header...
    expect(surfaces).not.toContain(Buffer.from(`shop:${PASSWORD}`).toString('base64')); // ...without its value
    expect(surfaces).not.toContain(PASSWORD);
  });
});

describe('a proxy token given as the user name (http://TOKEN@proxy:3128, no password)', () => {
  it('is a credential like a password: scrubbed where an answer repeats it', async () => {
    const token = 'tok_4f9a8b7c6d5e4f3a';
    const proxyUrl = `http://${token}@proxy.corp:3128`;
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/order_1042`, () =>
        HttpResponse.json(
          { status: 'error', message: `proxy ${proxyUrl}: access denied for ${token}` },
          { status: 403 },
        ),
      ),
    );
    const error = (await mock
      .wallet({ proxy: proxyUrl })
      .charges.verify('order_1042')
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('proxy http://[redacted]@proxy.corp:3128: access denied for [redacted]');
  });
});

describe("a proxy URL written half percent-encoded (the user name's @ as %40, the password as typed)", () => {
  it('is scrubbed as written, though its password is under 12 characters', async () => {
    // URL keeps %40 and encodes the ^: the written user:password is neither form of the parsed one.
    const proxyUrl = 'http://shop%40lagos:pa^ss-wd1@proxy.corp:3128';
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/order_1042`, () =>
        HttpResponse.json({ status: 'error', message: `proxy ${proxyUrl}: refused` }, { status: 403 }),
      ),
    );
    const error = (await mock
      .wallet({ proxy: proxyUrl })
      .charges.verify('order_1042')
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('proxy http://[redacted]@proxy.corp:3128: refused');
  });
});

describe('through a CONNECT tunnel (an https: service), from the environment', () => {
  it('NODE_USE_ENV_PROXY=1 and HTTPS_PROXY: the TLS session to the service runs inside the tunnel', async () => {
    const target = await service(true);
    const tunnel = await proxy(`shop:${PASSWORD}`);
    const env = {
      NODE_USE_ENV_PROXY: '1',
      HTTPS_PROXY: `http://shop:${PASSWORD}@127.0.0.1:${tunnel.port}`,
      NODE_EXTRA_CA_CERTS: CERT,
    };
    const child = fileURLToPath(new URL('./client-child.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, target.url], {
      env: { ...process.env, ...env },
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ ok: true, reference: 'order_1042' });
    expect(tunnel.seen.map((s) => s.line)).toEqual([`CONNECT ${new URL(target.url).host}`]);
    expect(target.hits).toEqual(['/v1/charges/verify/order_1042']);
  });

  it('in this process too (lowercase https_proxy, proxy: "env"): the tunnel reaches the service, whose certificate is then checked', async () => {
    const target = await service(true);
    const tunnel = await proxy();
    const { wallet } = client({ baseUrl: target.url, proxy: 'env' }, { https_proxy: tunnel.url });
    const error = (await wallet.charges.verify('order_1042').catch((e: unknown) => e)) as ConnectionError;
    // The certificate is self-signed and not trusted here: only the TLS session through the tunnel reports it.
    expect(String((error.cause as { code?: string }).code)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(tunnel.seen.map((s) => s.line)).toEqual([`CONNECT ${new URL(target.url).host}`]);
  });

  it.each([['localhost'], ['*'], ['.localhost'], ['example.com, localhost:PORT']])(
    'NO_PROXY=%s sends directly, and the debug log says why, once',
    async (noProxy) => {
      const target = await service(true);
      const tunnel = await proxy();
      const port = new URL(target.url).port;
      const env = {
        NODE_USE_ENV_PROXY: '1',
        HTTPS_PROXY: tunnel.url,
        NO_PROXY: noProxy.replace('PORT', port),
      };
      const { wallet, lines } = client({ baseUrl: target.url }, env);
      await wallet.charges.verify('a').catch(() => undefined);
      await wallet.charges.verify('b').catch(() => undefined);
      expect(tunnel.seen).toEqual([]);
      expect(lines.filter((l) => l.includes('NO_PROXY matches'))).toHaveLength(1);
    },
  );

  it('a tunnel refused with 407: ConnectionError WALLET_PROXY_REFUSED, outcome known, credentials nowhere', async () => {
    const target = await service(true);
    const tunnel = await proxy(`shop:${PASSWORD}`);
    const env = {
      NODE_USE_ENV_PROXY: '1',
      HTTPS_PROXY: `http://shop:not-${PASSWORD}@127.0.0.1:${tunnel.port}`,
    };
    const { wallet, lines } = client({ baseUrl: target.url }, env);
    const error = (await refund(wallet)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toContain('WALLET_PROXY_REFUSED');
    expect(String((error.cause as Error).message)).toContain('407 Proxy Authentication Required');
    expect(String((error.cause as Error).message)).toContain('HTTPS_PROXY');
    expect(target.hits).toEqual([]);
    const surfaces =
      inspect(error, { depth: 20 }) + JSON.stringify(error) + String(error.stack) + lines.join('\n');
    expect(surfaces).not.toContain(PASSWORD);
    expect(surfaces).not.toContain(Buffer.from(`shop:not-${PASSWORD}`).toString('base64'));
  });

  it('a proxy that cannot be reached: ConnectionError ECONNREFUSED naming the proxy, outcome known', async () => {
    const target = await service(true);
    const closed = await startProxy();
    await closed.close();
    const { wallet } = client({
      baseUrl: target.url,
      proxy: `http://shop:${PASSWORD}@127.0.0.1:${closed.port}`,
    });
    const error = (await refund(wallet)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcomeUnknown).toBe(false);
    expect(String((error.cause as Error).message)).toContain(`proxy http://127.0.0.1:${closed.port}`);
    expect(inspect(error, { depth: 20 }) + JSON.stringify(error)).not.toContain(PASSWORD);
  });
});

describe('proxy variables set but not used', () => {
  it('without NODE_USE_ENV_PROXY or proxy: direct, and the debug log says so once, naming no value', async () => {
    const target = await service(false);
    const unused = await proxy();
    const { wallet, lines } = client(
      { baseUrl: target.url },
      { HTTP_PROXY: `http://u:${PASSWORD}@127.0.0.1:${unused.port}` },
    );
    await wallet.charges.verify('a');
    await wallet.charges.verify('b');
    expect(unused.seen).toEqual([]);
    const said = lines.filter((l) => l.includes('HTTP_PROXY set but not used'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("proxy: 'env'");
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it("says nothing of proxy variables when none is set, with proxy: 'env' and the merchant's own fetch", async () => {
    const target = await service(false);
    const { wallet, lines } = client({ baseUrl: target.url, proxy: 'env', fetch: globalThis.fetch });
    await wallet.charges.verify('a');
    expect(lines.filter((l) => l.includes('not used'))).toEqual([]);
  });

  it('a malformed proxy option is refused at construction, without echoing it', () => {
    expect(
      () =>
        new Wallet({
          apiKey: 'sk_test_x',
          baseUrl: 'https://api.wallet.test',
          proxy: `socks://u:${PASSWORD}@h:1`,
        }),
    ).toThrow(/proxy: must be an http: or https: proxy URL/);
    const error = (() => {
      try {
        new Wallet({
          apiKey: 'sk_test_x',
          baseUrl: 'https://api.wallet.test',
          proxy: `http://u:${PASSWORD}@h:1/path`,
        });
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error?.message).toContain('without a path');
    expect(error?.message).not.toContain(PASSWORD);
  });
});
