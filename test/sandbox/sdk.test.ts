import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';

import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  Wallet,
  estimateFee,
} from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';
import type { Sandbox } from '@wallet/node/testing';

import { TEST_KEY } from './http-helpers.js';

const wallets: Wallet[] = [];
afterEach(async () => {
  await Promise.all(wallets.splice(0).map((w) => w.close()));
});

function walletFor(sandbox: Sandbox, apiKey = TEST_KEY): Wallet {
  const wallet = new Wallet({
    apiKey,
    baseUrl: sandbox.baseUrl,
    dispatcher: sandbox.dispatcher,
    maxRetries: 0,
  });
  wallets.push(wallet);
  return wallet;
}

async function paid(wallet: Wallet, sandbox: Sandbox, reference: string, amount: number): Promise<void> {
  const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount, reference });
  await wallet.charges.dispatch({ reference, bankId: linkedBanks[0]!.bankId, authChannel: 'wallet_qr' });
  await sandbox.authorize(reference);
}

describe('the SDK against the sandbox, in process', () => {
  it('gets each refusal as its typed error', async () => {
    const sandbox = createSandbox();
    const wallet = walletFor(sandbox);
    await paid(wallet, sandbox, 'order_1', 500_000);

    await expect(walletFor(sandbox, 'sk_live_abc').charges.verify('order_1')).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    await expect(
      wallet.charges.resolveHandle({ handle: '@nobody', amount: 1, reference: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      wallet.charges.resolveHandle({ handle: '@ada', amount: 1, reference: 'order_1' }),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(wallet.refunds.create({ reference: 'order_1', amount: 500_001 })).rejects.toBeInstanceOf(
      UnprocessableEntityError,
    );
    sandbox.setAllowedIps(['10.0.0.1']);
    await expect(wallet.charges.verify('order_1')).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('verifies a QR charge paid by scan as SUCCESS on its channel', async () => {
    const sandbox = createSandbox();
    const wallet = walletFor(sandbox);
    await paid(wallet, sandbox, 'order_qr', 123_456);
    expect(await wallet.charges.verify('order_qr')).toMatchObject({
      status: 'SUCCESS',
      channel: 'wallet_qr',
    });
  });

  it('charges the fee the SDK estimates, for any amount', async () => {
    const sandbox = createSandbox();
    const wallet = walletFor(sandbox);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 40 }), async (amount) => {
        const reference = `order_${n++}`;
        await paid(wallet, sandbox, reference, amount);
        const { fee, netAmount } = await wallet.charges.verify(reference);
        expect(fee).toBe(estimateFee(amount));
        expect(netAmount).toBe(amount - estimateFee(amount));
      }),
      { numRuns: 60 },
    );
  });
});
