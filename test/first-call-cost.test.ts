/**
 * What a serverless cold start pays for, in fresh processes of the built package. undici's Agent is
 * bundled with stubs for the builtins it would load for one value each (`node:http` for a default
 * header size, `node:assert` for its invariants: about 1.7 ms and 0.9 MB of a cold start), so the
 * first verify loads neither (ESM and CommonJS) and still works. The CommonJS root requires its
 * webhooks file only when a webhooks export is first read (about 1.4 ms).
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { paid } from './helpers/mock-service.js';
import { modulesLoadedBy, requireBuild, root } from './helpers/loaded-modules.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'success', message: 'Verification successful', data: paid }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The builtins (`http`, `assert`, …) a fresh process loaded for its first verify, and its result. */
async function firstVerify(format: 'esm' | 'cjs'): Promise<{ reference: unknown; builtins: string[] }> {
  requireBuild();
  const load =
    format === 'esm'
      ? `const { Wallet } = await import('@wallet/node');`
      : `const { Wallet } = require('@wallet/node');`;
  const body = `const wallet = new Wallet({ apiKey: 'sk_test_first_call', baseUrl: ${JSON.stringify(base)} });
    const { reference } = await wallet.charges.verify(${JSON.stringify(paid.reference)});
    const builtins = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule '));
    process.stdout.write(JSON.stringify({ reference, builtins: builtins.map((m) => m.slice(13)) }));
    await wallet.close();`;
  const code =
    format === 'esm'
      ? `const before = new Set(process.moduleLoadList);\n${load}\n${body}`
      : `const before = new Set(process.moduleLoadList);\n(async () => { ${load}\n${body} })();`;
  const args = format === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, timeout: 20_000 });
  return JSON.parse(stdout) as { reference: unknown; builtins: string[] };
}

describe.each(['esm', 'cjs'] as const)('the first verify of the built package (%s)', (format) => {
  it('works without loading node:http or node:assert', async () => {
    const { reference, builtins } = await firstVerify(format);
    expect(reference).toBe(paid.reference);
    expect(builtins).toContain('net');
    expect(builtins.filter((m) => /^(http|_http_\w+|assert|http2)$/.test(m))).toEqual([]);
  });
});

describe('the CommonJS root', () => {
  const dist = (modules: string[]) =>
    modules.filter((m) => m.includes('/dist/')).map((m) => m.replace(/.*\/dist\//, ''));

  it("gives the webhooks entry's own functions, loading it once", () => {
    const { modules, stdout } = modulesLoadedBy(
      'cjs',
      `const root = require('@wallet/node');
      const webhooks = require('@wallet/node/webhooks');
      const same = ['verifyWebhook', 'verifyWebhookAsync', 'signWebhook', 'createWebhookHandler', 'WEBHOOK_SIGNATURE_HEADER']
        .every((name) => root[name] !== undefined && root[name] === webhooks[name]);
      console.log(JSON.stringify({ same, keys: Object.keys(root).includes('verifyWebhook') }));`,
    );
    expect(JSON.parse(stdout)).toEqual({ same: true, keys: true });
    expect(dist(modules).sort()).toEqual(['index.cjs', 'webhooks.cjs']);
  });
});
