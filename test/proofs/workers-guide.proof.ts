/**
 * The guides' Cloudflare Workers, as written: the webhooks guide's Worker that builds its handler
 * from the `WALLET_WEBHOOK_SECRET` binding, and getting started's Worker that builds the client from
 * `WALLET_SECRET_KEY` and `WALLET_BASE_URL`. Each is read from its guide at run time into a fresh
 * project that installs the packed tarball, bundled by `wrangler deploy --dry-run` (no
 * nodejs_compat) and run in workerd by Miniflare, its variables given as bindings, never as
 * `process.env`. What the merchant observes: the answers, and what their `onEvent` logged.
 */
import { dirname } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { Wallet } from '@wallet/node';
import { createSandbox, signWebhook, type Sandbox } from '@wallet/node/testing';

import { guideSnippet } from './guide-snippets.js';
import { freshProject, removePacked } from './pack.mjs';
import { proof } from './pending.js';
import { COMPATIBILITY_DATE, wranglerBundle } from './wrangler.js';

const SECRET = 'whsec_guide_proof_4eC39HqLyjWDarjt';
const TEST_KEY = 'sk_test_demo';

/** The webhooks guide's Worker word for word, then the `onEvent` the guide leaves to the merchant. */
const webhookWorker = (snippet: string): string => `${snippet}
// The merchant's own code, which the guide leaves to you: here it logs what it handled.
import type { WebhookEvent } from '@wallet/node/webhooks';
async function onEvent(event: WebhookEvent): Promise<void> {
  console.log(\`handled \${JSON.stringify(event)}\`);
}
`;

const WRANGLER_TOML = `name = "merchant-worker"
main = "webhook-worker.ts"
compatibility_date = "${COMPATIBILITY_DATE}"
`;

/**
 * A Worker bundle running in workerd with `bindings`: a request to it (failing with what workerd
 * printed, which Miniflare's own error leaves out), and everything it logged.
 */
function inWorkerd(scriptPath: string, bindings: Record<string, string>) {
  let logged = '';
  const mf = new Miniflare({
    scriptPath,
    modules: true,
    // Module names are relative to this root: the bundle's own folder, outside this repository.
    modulesRoot: dirname(scriptPath),
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', (chunk: Buffer) => (logged += chunk.toString()));
      stderr.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    },
  });
  const dispatch = async (url: string, init?: Parameters<Miniflare['dispatchFetch']>[1]) => {
    try {
      const response = await mf.dispatchFetch(url, init);
      return { status: response.status, body: await response.text() };
    } catch (error) {
      throw new Error(`workerd: ${String(error)}\n${logged}`, { cause: error });
    }
  };
  return { mf, dispatch, logged: () => logged };
}

/**
 * The mistake the guide warns of: a client built at module level, where a Worker has no `env` and
 * (without nodejs_compat) no `process.env`, although the bindings are set.
 */
const MODULE_LEVEL_WORKER = `import { Wallet } from '@wallet/node';

const wallet = new Wallet();

export default {
  async fetch(): Promise<Response> {
    const error = await wallet.charges.verify('order_1764000000000').then(
      () => ({ name: 'none', message: 'the call went out' }),
      (e: Error) => ({ name: e.name, message: e.message }),
    );
    return Response.json(error);
  },
};
`;

const event = (reference: string) => ({
  event: 'charge.success',
  data: { reference, amount: 500_000, customer: { handle: '@ada' } },
});

let project: Awaited<ReturnType<typeof freshProject>>;
beforeAll(async () => {
  project = await freshProject({
    name: 'guides-worker',
    files: {
      'wrangler.toml': WRANGLER_TOML,
      'webhook-worker.ts': webhookWorker(
        guideSnippet('docs/webhooks.md', '### Bun, Deno, Cloudflare Workers', 2),
      ),
      'client-worker.ts': guideSnippet('docs/getting-started.md', '## 1. Install'),
      'module-level-worker.ts': MODULE_LEVEL_WORKER,
    },
  });
});
afterAll(() => {
  project?.remove();
  removePacked();
});

describe('the webhooks guide’s Worker, its secret a binding', () => {
  let worker: ReturnType<typeof inWorkerd>;
  beforeAll(async () => {
    const bundle = await wranglerBundle(project.dir, 'webhook-worker.ts', 'out-hooks');
    worker = inWorkerd(bundle.path, { WALLET_WEBHOOK_SECRET: SECRET });
  });
  afterAll(() => worker?.mf.dispose());

  const post = (body: string, signature?: string) =>
    worker.dispatch('http://merchant.test/webhooks/wallet', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'x-wallet-signature': signature }),
      },
      body,
    });
  const handled = (): unknown[] =>
    [...worker.logged().matchAll(/handled (.*)$/gm)].map((line) => JSON.parse(line[1]!) as unknown);

  proof(
    'a forged delivery is answered 400 and never reaches onEvent; the genuine one 200, run once',
    async () => {
      const reference = 'order_guide_worker';
      const genuine = signWebhook(event(reference), SECRET);
      const refused = { status: 400, body: '{"received":false}' };
      // Signed with another secret, the body changed after signing, and no signature at all.
      expect(await post(genuine.body, signWebhook(event(reference), 'whsec_forger').signature)).toEqual(
        refused,
      );
      expect(await post(genuine.body.replace('500000', '1'), genuine.signature)).toEqual(refused);
      expect(await post(genuine.body)).toEqual(refused);

      expect(await post(genuine.body, genuine.signature)).toEqual({ status: 200, body: '{"received":true}' });
      // onEvent logged before the 200; workerd's pipe may lag the answer.
      await expect.poll(() => handled().length).toBe(1);
      expect(handled()).toEqual([event(reference)]);
    },
  );
});

describe('getting started’s Worker, its client built from the env bindings', () => {
  let worker: ReturnType<typeof inWorkerd>;
  let sandbox: Sandbox;
  let baseUrl: string;
  beforeAll(async () => {
    sandbox = createSandbox();
    baseUrl = (await sandbox.listen()).url;
    const bundle = await wranglerBundle(project.dir, 'client-worker.ts', 'out-client');
    worker = inWorkerd(bundle.path, { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: baseUrl });
  });
  afterAll(async () => {
    await worker?.mf.dispose();
    await sandbox?.close();
  });

  proof(
    'verifies a charge on the loopback sandbox: unpaid, then paid once the customer approves',
    async () => {
      const reference = `order_guide_worker_${Date.now().toString(36)}`;
      const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl });
      const { linkedBanks } = await wallet.charges.resolveHandle({
        handle: '@ada',
        amount: 500_000,
        reference,
      });
      await wallet.charges.dispatch({
        reference,
        bankId: linkedBanks[0]!.bankId,
        authChannel: 'wallet_push',
      });
      await wallet.close();

      const ask = async () => {
        const { status, body } = await worker.dispatch(`http://merchant.test/?reference=${reference}`);
        return { status, body: JSON.parse(body) as unknown };
      };
      expect(await ask()).toEqual({ status: 200, body: { reference, paid: false } });
      expect(
        (await fetch(`${baseUrl}/_sandbox/charges/${reference}/authorize`, { method: 'POST' })).status,
      ).toBe(200);
      expect(await ask()).toEqual({ status: 200, body: { reference, paid: true } });

      // The Worker's calls reached the sandbox under the key from its binding.
      const verifies = sandbox.requests.filter((r) => r.path === `/v1/charges/verify/${reference}`);
      expect(verifies.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 200', 'GET 200']);
    },
  );

  proof(
    'a client built at module level instead says, at its first call, which bindings to pass, and sends nothing',
    async () => {
      const bundle = await wranglerBundle(project.dir, 'module-level-worker.ts', 'out-module-level');
      const mistaken = inWorkerd(bundle.path, { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: baseUrl });
      try {
        const before = sandbox.requests.length;
        const { body } = await mistaken.dispatch('http://merchant.test/');
        const error = JSON.parse(body) as { name: string; message: string };
        expect(error.name).toBe('ValidationError');
        expect(error.message).toContain("a Worker's variables are bindings on its handler's env");
        expect(error.message).toContain(
          'pass apiKey: env.WALLET_SECRET_KEY to new Wallet() inside the handler',
        );
        expect(error.message).toContain('pass baseUrl: env.WALLET_BASE_URL');
        expect(sandbox.requests.length).toBe(before);
      } finally {
        await mistaken.mf.dispose();
      }
    },
  );
});
