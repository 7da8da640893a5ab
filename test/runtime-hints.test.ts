import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Wallet, isWalletError } from '@wallet/node';

import { caught } from './helpers/caught.js';
import { modulesLoadedBy } from './helpers/loaded-modules.js';

// What a merchant reads when the runtime, not their code, is the reason a call cannot go out: a
// Worker's variables are bindings, Deno needs permissions, a test's fetch mock never sees undici.

/** A loopback port with nothing listening on it: connecting is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('a call that cannot connect, under a test runner', () => {
  const HINT = 'set WALLET_TRANSPORT=fetch so it sees the SDK';

  it('says that MSW does not see the default transport, under vitest (VITEST) or jest (JEST_WORKER_ID)', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    for (const runner of [{ VITEST: 'true' }, { VITEST: '', JEST_WORKER_ID: '1' }]) {
      for (const [name, value] of Object.entries(runner)) vi.stubEnv(name, value);
      const wallet = new Wallet({ apiKey: 'sk_test_hint', baseUrl, maxRetries: 0 });
      const error = await caught(wallet.charges.verify('order_1042'));
      expect(error).toMatchObject({ name: 'ConnectionError', outcomeUnknown: false });
      expect((error as Error).message).toContain('ECONNREFUSED');
      expect((error as Error).message).toContain(HINT);
      await wallet.close();
    }
  });

  it('says nothing of it outside a test runner, or once WALLET_TRANSPORT=fetch is set', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    vi.stubEnv('VITEST', '');
    vi.stubEnv('JEST_WORKER_ID', '');
    const plain = new Wallet({ apiKey: 'sk_test_hint', baseUrl, maxRetries: 0 });
    const outside = await caught(plain.charges.verify('order_1042'));
    expect(isWalletError(outside) && outside.message).not.toContain('WALLET_TRANSPORT');
    await plain.close();

    vi.stubEnv('VITEST', 'true');
    vi.stubEnv('WALLET_TRANSPORT', 'fetch');
    const viaFetch = new Wallet({ apiKey: 'sk_test_hint', baseUrl, maxRetries: 0 });
    const fetched = await caught(viaFetch.charges.verify('order_1042'));
    expect(fetched).toMatchObject({ name: 'ConnectionError' });
    expect((fetched as Error).message).not.toContain('WALLET_TRANSPORT');
    await viaFetch.close();
  });
});

describe('Deno without its permissions', () => {
  it('a fetch refused for want of --allow-net is a WalletError saying which flags, sent once, outcome known', async () => {
    // Deno's own error for a permission it was not given: a class named NotCapable, with no code.
    class NotCapable extends Error {
      override name = 'NotCapable';
    }
    let calls = 0;
    const fetch = (): Promise<Response> => {
      calls++;
      return Promise.reject(new NotCapable('Requires net access to "api.example.ng:443"'));
    };
    const wallet = new Wallet({ apiKey: 'sk_test_deno', baseUrl: 'https://api.example.ng', fetch });
    const error = await caught(wallet.refunds.create({ reference: 'order_1042' }));
    expect(isWalletError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'ValidationError', outcomeUnknown: false, attempts: 1 });
    expect((error as Error).message).toContain('--allow-env --allow-net');
    expect((error as Error).message).toContain('Nothing was sent');
    expect(calls).toBe(1);
  });

  it('reads no variable Deno denies, and the first call names the flags to run with', () => {
    // The Bun and Deno build, with Deno's permission API answering as `deno run` without flags does.
    // Deno's process.env without --allow-env: every read throws NotCapable (set once the SDK is
    // loaded, so Node's own loader can still read its variables).
    const code = `globalThis.Deno = { permissions: { querySync: () => ({ state: 'prompt' }) } };
      const { Wallet } = await import('@wallet/node');
      const out = process.stdout;
      const denied = new Proxy({}, { get(_, name) {
        throw Object.assign(new Error('Requires env access to "' + String(name) + '"'), { name: 'NotCapable' });
      } });
      Object.defineProperty(process, 'env', { value: denied, configurable: true });
      const wallet = new Wallet();
      const error = await wallet.charges.verify('order_1042').catch((e) => e);
      out.write(JSON.stringify({ name: error.name, message: error.message }));`;
    const { stdout } = modulesLoadedBy('esm', code, ['deno']);
    const error = JSON.parse(stdout) as { name: string; message: string };
    expect(error.name).toBe('ValidationError');
    expect(error.message).toContain(
      'WALLET_SECRET_KEY: is not set, and Deno did not allow reading it: run with --allow-env --allow-net',
    );
  });
});

describe('a Worker, where there is no process.env', () => {
  it("the first call says the variable is a binding on the handler's env, and how to pass it", () => {
    const code = `const out = process.stdout;
      Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
      const { Wallet } = await import('@wallet/node');
      const wallet = new Wallet(); // module level, as a Worker's top level would build it
      const error = await wallet.charges.verify('order_1042').catch((e) => e);
      out.write(JSON.stringify({ name: error.name, message: error.message }));`;
    const { stdout } = modulesLoadedBy('esm', code, ['workerd']);
    const error = JSON.parse(stdout) as { name: string; message: string };
    expect(error.name).toBe('ValidationError');
    expect(error.message).toContain(
      "WALLET_SECRET_KEY: is not set, and this runtime has no process.env: a Worker's variables are bindings on its handler's env, so pass apiKey: env.WALLET_SECRET_KEY to new Wallet() inside the handler",
    );
    expect(error.message).toContain('pass baseUrl: env.WALLET_BASE_URL');
  });
});
