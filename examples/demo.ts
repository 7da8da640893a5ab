/**
 * `npm run demo`: a whole merchant flow against the offline sandbox, on loopback only.
 *
 * It starts the sandbox's HTTP server and an Express webhook endpoint, then does what a merchant's
 * backend does: resolve the customer, dispatch a push, (the customer authorizes), receive and verify
 * the signed webhook, confirm by reference, refund part, see an over-refund refused, and retry a
 * request safely with its idempotency key. It prints a short transcript, then the sandbox's own log
 * of what it saw and did (one line per request and per webhook delivery attempt), and exits 0.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';

import express from 'express';

import { UnprocessableEntityError, Wallet, formatNaira } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';
import { createNodeWebhookHandler } from '@wallet/node/webhooks';
import type { WebhookEvent } from '@wallet/node/webhooks';

const API_KEY = 'sk_test_demo_merchant';
const WEBHOOK_SECRET = 'whsec_demo_secret';
const REFERENCE = 'order_1042';
const AMOUNT = 500_000; // Kobo: ₦5,000.00

const step = (label: string, text: string): void => console.log(`  ${label.padEnd(10)} ${text}`);

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`Demo check failed: ${what}`);
}

/** The merchant's webhook endpoint: raw body in, signature verified by the SDK, event recorded. */
async function startWebhookEndpoint(received: WebhookEvent[]): Promise<{ url: string; server: Server }> {
  const app = express();
  app.post(
    '/webhooks/wallet',
    express.raw({ type: 'application/json' }),
    createNodeWebhookHandler({
      secret: WEBHOOK_SECRET,
      onEvent(event) {
        received.push(event);
      },
    }),
  );
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error?: Error) => {
      if (error) return reject(error);
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no TCP address'));
      resolve({ url: `http://127.0.0.1:${address.port}/webhooks/wallet`, server });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

async function main(): Promise<void> {
  const received: WebhookEvent[] = [];
  const webhook = await startWebhookEndpoint(received);
  // The sandbox logs as the development server does; kept aside and printed after the transcript.
  const log: string[] = [];
  const logger = { info: (line: string) => log.push(line), warn: (line: string) => log.push(line) };
  const sandbox = createSandbox({ webhookUrl: webhook.url, webhookSecret: WEBHOOK_SECRET, logger });
  const api = await sandbox.listen();
  const wallet = new Wallet({ apiKey: API_KEY, baseUrl: api.url });
  try {
    console.log('Wallet sandbox demo');
    console.log(`  sandbox    ${api.url}`);
    console.log(`  webhooks   ${webhook.url}\n`);

    const resolved = await wallet.charges.resolveHandle({
      handle: '@ada',
      amount: AMOUNT,
      reference: REFERENCE,
    });
    const bank = resolved.linkedBanks[0];
    check(bank !== undefined, 'Ada has a bank with an ACTIVE mandate');
    step(
      'resolve',
      `${resolved.customer.handle} is ${resolved.customer.name}; pays from ${bank.bankName} ${bank.accountNumberMasked}`,
    );

    const dispatchParams = { reference: REFERENCE, bankId: bank.bankId, authChannel: 'wallet_push' } as const;
    // The payment attempt's own key, stored with it before sending (never one per order).
    const dispatchKey = randomUUID();
    const dispatched = await wallet.charges.dispatch(dispatchParams, { idempotencyKey: dispatchKey });
    step('dispatch', `${REFERENCE} for ${formatNaira(AMOUNT)} by push: ${dispatched.status}`);

    const { webhook: delivery } = await sandbox.authorize(REFERENCE);
    step('authorize', 'Ada approves the prompt in her app (sandbox.authorize)');

    const event = received[0];
    check(
      delivery?.delivered === true && received.length === 1 && event !== undefined,
      'one webhook received',
    );
    check(event.event === 'charge.success', 'the event is charge.success');
    step(
      'webhook',
      `${event.event} for ${event.data.reference}: ${formatNaira(event.data.amount)} from ${event.data.customer.handle} (signature verified)`,
    );

    const paid = await wallet.charges.verify(REFERENCE);
    check(paid.status === 'SUCCESS' && paid.fee != null && paid.netAmount != null, 'the charge is paid');
    step(
      'verify',
      `${paid.status}: paid ${formatNaira(paid.amount)}, fee ${formatNaira(paid.fee)}, net ${formatNaira(paid.netAmount)}, ${paid.settlement?.status ?? 'unsettled'}`,
    );

    const refund = await wallet.refunds.create({
      reference: REFERENCE,
      amount: 100_000,
      reason: 'one item returned',
    });
    step('refund', `${formatNaira(refund.amount)} ${refund.status} (${refund.refundReference})`);

    try {
      await wallet.refunds.create({ reference: REFERENCE, amount: 450_000 });
      throw new Error('Demo check failed: an over-refund was accepted');
    } catch (error) {
      if (!(error instanceof UnprocessableEntityError)) throw error;
      step('refund', `${formatNaira(450_000)} refused: ${error.name} (${error.status}) ${error.message}`);
    }

    const retry = await wallet.charges
      .dispatch(dispatchParams, { idempotencyKey: dispatchKey })
      .withResponse();
    const replayed = retry.response.headers['idempotent-replayed'] === 'true';
    check(replayed && retry.data.status === dispatched.status, 'the retry replayed the original answer');
    const debits = sandbox.debits;
    check(debits.length === 1, 'Ada was debited once');
    step(
      'retry',
      `dispatch again with key ${dispatchKey}: original answer replayed (${retry.data.status}); Ada debited ${debits.length} time`,
    );
    const refunded = sandbox.refunds.reduce((sum, r) => sum + r.amount, 0);
    console.log(
      `\nDone: Ada debited ${debits.length} time (${formatNaira(debits[0]?.amount ?? 0)}), refunded ${formatNaira(refunded)}.`,
    );
    console.log('\nSandbox log (what the sandbox saw and did):');
    for (const line of log) console.log(`  ${line}`);
  } finally {
    await wallet.close();
    await sandbox.close();
    await closeServer(webhook.server);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
