// The loopback example of docs/testing.md, run as written: real HTTP both ways, the merchant's
// webhook endpoint included.
// #region loopback
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { createNodeWebhookHandler } from '@wallet/node/webhooks';
import { createSandbox } from '@wallet/node/testing';

it('delivers the signed webhook to your endpoint over HTTP', async () => {
  const paid: string[] = [];
  const onWebhook = createNodeWebhookHandler({
    secret: 'whsec_demo',
    onEvent: (event) => {
      if (event.event === 'charge.success') paid.push(event.data.reference);
    },
  });
  const endpoint = createServer((req, res) => void onWebhook(req, res)); // your app's endpoint
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const { port } = endpoint.address() as AddressInfo;

  const sandbox = createSandbox({
    webhookUrl: `http://127.0.0.1:${port}/webhooks/wallet`,
    webhookSecret: 'whsec_demo',
  });
  const { url, close } = await sandbox.listen(); // http://127.0.0.1:<free port>
  const wallet = new Wallet({ apiKey: 'sk_test_123', baseUrl: url });
  try {
    const { linkedBanks } = await wallet.charges.resolveHandle({
      handle: '@ada',
      amount: 500_000,
      reference: 'order_2',
    });
    await wallet.charges.dispatch({
      reference: 'order_2',
      bankId: linkedBanks[0]!.bankId,
      authChannel: 'wallet_push',
    });
    const { webhook } = await sandbox.authorize('order_2'); // resolves once your endpoint answered
    expect(webhook?.delivered).toBe(true);
    expect(paid).toEqual(['order_2']);
  } finally {
    await wallet.close();
    await close();
    endpoint.close();
  }
});
// #endregion loopback
