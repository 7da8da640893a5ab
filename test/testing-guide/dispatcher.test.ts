// The in-process example of docs/testing.md, run as written.
// #region dispatcher
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { UnprocessableEntityError, Wallet } from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

let sandbox: Sandbox;
let wallet: Wallet;

beforeEach(() => {
  sandbox = createSandbox();
  wallet = new Wallet({ apiKey: 'sk_test_123', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
});
afterEach(async () => {
  await wallet.close(); // the dispatcher is yours: wallet.close() leaves it open
  await sandbox.close();
});

it('charges Ada once, even when the payment attempt is sent again', async () => {
  const { linkedBanks } = await wallet.charges.resolveHandle({
    handle: '@ada',
    amount: 500_000,
    reference: 'order_1',
  });
  const params = {
    reference: 'order_1',
    bankId: linkedBanks[0]!.bankId,
    authChannel: 'wallet_push',
  } as const;
  // The payment attempt's own key, stored with it before sending (never one per order).
  const attempt = { id: randomUUID(), ...params };
  await wallet.charges.dispatch(params, { idempotencyKey: attempt.id });
  await sandbox.authorize('order_1');
  await wallet.charges.dispatch(params, { idempotencyKey: attempt.id }); // sent again: replayed

  expect(await wallet.charges.verify('order_1')).toMatchObject({
    status: 'SUCCESS',
    fee: 10_000,
    netAmount: 490_000,
  });
  expect(sandbox.debits).toHaveLength(1);
  await expect(wallet.refunds.create({ reference: 'order_1', amount: 600_000 })).rejects.toBeInstanceOf(
    UnprocessableEntityError,
  );
});
// #endregion dispatcher
