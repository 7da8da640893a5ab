import { setupServer } from 'msw/node';
import { afterEach, describe, it } from 'vitest';

import { Wallet } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';

import { fetchApi, merchantFlow, sdkApi } from './flow.js';
import { TEST_KEY } from './http-helpers.js';
import { WEBHOOK_SECRET, startReceiver } from './receiver.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const sandbox = createSandbox({
    webhookUrl: receiver.url,
    webhookSecret: WEBHOOK_SECRET,
    webhookRetry: { attempts: 3, delayMs: 10, timeoutMs: 1000 },
  });
  cleanups.push(() => sandbox.close());
  return { receiver, sandbox };
}

describe('the whole merchant flow', () => {
  it('works through MSW handlers with global fetch', async () => {
    const { receiver, sandbox } = await setup();
    const server = setupServer(...sandbox.handlers);
    // The webhook goes to a real loopback endpoint, so MSW lets what it does not handle through.
    server.listen({ onUnhandledRequest: 'bypass' });
    cleanups.push(() => server.close());
    await merchantFlow(fetchApi(sandbox.baseUrl), sandbox, receiver);
  });

  it('works through the in-process dispatcher with the SDK', async () => {
    const { receiver, sandbox } = await setup();
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
    cleanups.push(() => wallet.close());
    await merchantFlow(sdkApi(wallet), sandbox, receiver);
  });

  it('works through the loopback server with the SDK', async () => {
    const { receiver, sandbox } = await setup();
    const { url, close } = await sandbox.listen();
    cleanups.push(close);
    const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: url });
    cleanups.push(() => wallet.close());
    await merchantFlow(sdkApi(wallet), sandbox, receiver);
  });
});
