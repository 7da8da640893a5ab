/**
 * The built package behind a proxy, loaded as a merchant's process loads it (ESM and CommonJS,
 * configured by `NODE_USE_ENV_PROXY=1` and the proxy variables): through a real CONNECT tunnel and
 * a real forward proxy on loopback, it loads only its proxy file (undici's ProxyAgent, bundled)
 * and no package: not the whole of undici, not the Agent's file it does not use.
 */
import { describe, expect, it } from 'vitest';

import { modulesLoadedBy, modulesLoadedByAsync, packagesIn } from '../helpers/loaded-modules.js';
import { CERT, loopback } from './proxies.js';

const { service, proxy } = loopback();

/** One verify by the built package in a fresh process; its outcome and every module it loaded. */
async function verifyInChild(format: 'esm' | 'cjs', baseUrl: string, env: Record<string, string>) {
  const load =
    format === 'esm'
      ? `const { Wallet } = await import('@wallet/node');`
      : `const { Wallet } = require('@wallet/node');`;
  const body = `const wallet = new Wallet({ apiKey: 'sk_test_proxy_dist', baseUrl: ${JSON.stringify(baseUrl)}, maxRetries: 0 });
    try {
      const charge = await wallet.charges.verify('order_1042');
      console.log(JSON.stringify({ ok: true, reference: charge.reference }));
    } catch (error) {
      console.log(JSON.stringify({ ok: false, error: String(error), cause: String(error.cause) }));
    } finally {
      await wallet.close();
    }`;
  const code = format === 'esm' ? `${load}\n${body}` : `(async () => { ${load}\n${body} })();`;
  const { modules, stdout } = await modulesLoadedByAsync(format, code, { NODE_USE_ENV_PROXY: '1', ...env });
  const dist = modules.filter((m) => m.includes('/dist/')).map((m) => m.replace(/.*\/dist\//, ''));
  return { outcome: JSON.parse(stdout.trim()) as unknown, dist, packages: packagesIn(modules) };
}

describe.each(['esm', 'cjs'] as const)('the built package (%s) behind a proxy', (format) => {
  const ext = format === 'esm' ? 'js' : 'cjs';

  it('HTTPS_PROXY: the TLS session runs inside the CONNECT tunnel; only the proxy file is loaded', async () => {
    const target = await service(true);
    const tunnel = await proxy();
    const run = await verifyInChild(format, target.url, {
      HTTPS_PROXY: tunnel.url,
      NODE_EXTRA_CA_CERTS: CERT,
    });
    expect(run.outcome).toEqual({ ok: true, reference: 'order_1042' });
    expect(tunnel.seen.map((s) => s.line)).toEqual([`CONNECT ${new URL(target.url).host}`]);
    expect(target.hits).toEqual(['/v1/charges/verify/order_1042']);
    expect(run.dist).toContain(`undici-proxy.${ext}`);
    expect(run.dist).not.toContain(`undici-agent.${ext}`);
    expect(run.packages).toEqual([]);
  });

  it('HTTP_PROXY: absolute-form requests through the forward proxy; only the proxy file is loaded', async () => {
    const target = await service(false);
    const forward = await proxy();
    const run = await verifyInChild(format, target.url, { HTTP_PROXY: forward.url });
    expect(run.outcome).toEqual({ ok: true, reference: 'order_1042' });
    expect(forward.seen.map((s) => s.line)).toEqual([`GET ${target.url}/v1/charges/verify/order_1042`]);
    expect(target.hits).toEqual(['/v1/charges/verify/order_1042']);
    expect(run.dist).toContain(`undici-proxy.${ext}`);
    expect(run.dist).not.toContain(`undici-agent.${ext}`);
    expect(run.packages).toEqual([]);
  });
});

describe.each([
  ['Bun/Deno', 'bun'],
  ['Fetch runtime', 'workerd'],
])('the %s build, whose fetch cannot take a proxy URL', (_, condition) => {
  it('refuses the proxy option at construction, never sending past it', () => {
    // Nothing listens on port 9: a call that went out directly would end in a ConnectionError.
    const code = `const { Wallet } = await import('@wallet/node');
        try {
          const wallet = new Wallet({ apiKey: 'sk_test_proxy_dist', baseUrl: 'http://127.0.0.1:9', proxy: 'http://user:proxy-secret-1@127.0.0.1:9', maxRetries: 0 });
          await wallet.charges.verify('order_1042').catch((e) => console.log(JSON.stringify([e.name, e.message])));
        } catch (e) { console.log(JSON.stringify([e.name, e.code, e.issues])); }`;
    const [name, errorCode, issues] = JSON.parse(modulesLoadedBy('esm', code, [condition]).stdout) as [
      string,
      string,
      { path: string; message: string }[],
    ];
    expect([name, errorCode]).toEqual(['ValidationError', 'invalid_request']);
    expect(issues).toEqual([{ path: 'proxy', message: expect.stringMatching(/directly/) as string }]);
    expect(JSON.stringify(issues)).not.toContain('proxy-secret-1');
  });
});
