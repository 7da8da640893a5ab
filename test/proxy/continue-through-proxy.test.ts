/**
 * An unsolicited `100 Continue` through a proxy: the forward proxy's own (some send one to every
 * POST), and the service's through a CONNECT tunnel. undici fails the connection on it; the call
 * ends in the truthful ConnectionError the client's own Agent gives (test/unsolicited-continue.test.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { Wallet } from '../../src/index.js';
import { paid, refunded, TEST_KEY } from '../helpers/mock-service.js';
import { jsonAnswer, rawServer } from '../helpers/raw-server.js';
import { startProxy } from './proxies.js';

const CERT = fileURLToPath(new URL('../fixtures/localhost-cert.pem', import.meta.url));
const KEY = fileURLToPath(new URL('../fixtures/localhost-key.pem', import.meta.url));
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
const ok = (data: unknown) => jsonAnswer(200, { status: 'success', data });

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('an unsolicited 100 Continue through a proxy', () => {
  it("a forward proxy's 100 before the answer: a ConnectionError naming it, outcome unknown, sent once", async () => {
    // The raw server is the proxy here: it gets the absolute-form request and answers it itself.
    const forward = await rawServer((r) => [CONTINUE, r.method === 'POST' ? ok(refunded) : ok(paid)]);
    const wallet = new Wallet({
      apiKey: TEST_KEY,
      baseUrl: 'http://127.0.0.1:9',
      proxy: forward.url,
      maxRetries: 0,
      maxConnections: 1,
    });
    closers.push(
      () => forward.close(),
      () => wallet.close(),
    );
    const refund = { reference: 'order_1042', amount: 100_000 };
    const error = await wallet.refunds.create(refund).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'ConnectionError', outcomeUnknown: true });
    expect((error as Error).message).toContain('100 Continue');
    expect(forward.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST http://127.0.0.1:9/v1/refunds',
    ]);
  });

  it("the service's 100 inside a CONNECT tunnel (TLS): the same truthful ConnectionError", async () => {
    const secure = { cert: readFileSync(CERT), key: readFileSync(KEY) };
    const service = await rawServer(() => [CONTINUE, ok(paid)], secure);
    const tunnel = await startProxy();
    closers.push(
      () => service.close(),
      () => tunnel.close(),
    );
    // The loopback certificate is trusted only through NODE_EXTRA_CA_CERTS, read at process start.
    const env = { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: tunnel.url, NODE_EXTRA_CA_CERTS: CERT };
    const child = fileURLToPath(new URL('./client-child.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, service.url], {
      env: { ...process.env, ...env },
    });
    const outcome = JSON.parse(stdout.trim().split('\n').at(-1)!) as { ok: boolean; error: string };
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining('100 Continue') });
    expect(tunnel.seen.map((s) => s.line)).toEqual([`CONNECT ${new URL(service.url).host}`]);
    expect(service.requests).toHaveLength(1);
  });
});
