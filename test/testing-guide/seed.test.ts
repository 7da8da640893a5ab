// #region seed
import { expect, it } from 'vitest';
import { Wallet } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';

it('answers verify for seeded charges as for any other', async () => {
  const sandbox = createSandbox();
  sandbox.seed([
    { reference: 'order_1', amount: 500_000, status: 'SUCCESS' }, // paid, fee by the fee rule
    { reference: 'order_2', amount: 250_000, status: 'SUCCESS', fee: 1 }, // a fee that does not add up
    { reference: 'order_3', amount: 250_000, status: 'SUCCESS', refunded: 100_000 }, // or true: all of it
    { reference: 'order_4', amount: 120_000, status: 'PENDING_AUTHORIZATION' }, // authorize() works on it
    { reference: 'order_5', amount: 90_000, status: 'FAILED', handle: '@tunde' },
    { reference: 'order_6', amount: 70_000, status: 'EXPIRED' }, // verify says FAILED
  ]);
  const wallet = new Wallet({
    apiKey: 'sk_test_123',
    baseUrl: sandbox.baseUrl,
    dispatcher: sandbox.dispatcher,
  });

  expect(await wallet.charges.verify('order_2')).toMatchObject({ status: 'SUCCESS', fee: 1 });
  expect(await wallet.charges.verify('order_6')).toMatchObject({ status: 'FAILED' });
  await sandbox.authorize('order_4');
  expect(await wallet.charges.verify('order_4')).toMatchObject({ status: 'SUCCESS', fee: 2_400 });
});
// #endregion seed
