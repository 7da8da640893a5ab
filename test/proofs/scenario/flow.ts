/**
 * A merchant's checkout backend, run unchanged inside workerd, Bun and Deno against the built
 * package: resolve, dispatch, the customer approves, verify, refund.
 */
import { Wallet } from '@wallet/node';

import { seen, type FlowReport, type ScenarioInput, type SeenError } from './report.js';

/** resolve → dispatch → (the customer authorizes, through the sandbox) → verify → refund. */
export async function merchantFlow(input: ScenarioInput): Promise<FlowReport> {
  const wallet = new Wallet({ apiKey: input.apiKey, baseUrl: input.baseUrl, maxRetries: 1 });
  const { reference } = input;
  try {
    const { linkedBanks } = await wallet.charges.resolveHandle({
      handle: '@ada',
      amount: 500_000,
      reference,
    });
    const bankId = linkedBanks[0]!.bankId;
    const { data, response } = await wallet.charges
      .dispatch({ reference, bankId, authChannel: 'wallet_push' })
      .withResponse();
    // Ada approves on her phone: the sandbox in the test process marks the charge paid.
    const approved = await fetch(
      `${input.baseUrl}/_sandbox/charges/${encodeURIComponent(reference)}/authorize`,
      {
        method: 'POST',
      },
    );
    if (!approved.ok) throw new Error(`sandbox authorize answered ${approved.status}`);
    const verified = await wallet.charges.verify(reference);
    const refund = await wallet.refunds.create({ reference, amount: 100_000, reason: 'one item returned' });
    let overRefund: SeenError = { name: 'none', message: 'the over-refund was accepted' };
    try {
      await wallet.refunds.create({ reference, amount: 450_000 });
    } catch (error) {
      overRefund = seen(error);
    }
    return {
      bankId,
      dispatched: {
        status: data.status,
        idempotencyKey: response.idempotencyKey ?? '',
        attempts: response.attempts,
      },
      verified: {
        status: verified.status,
        fee: verified.fee,
        netAmount: verified.netAmount,
        amount: verified.amount,
      },
      refund: { status: refund.status, amount: refund.amount },
      overRefund,
    };
  } finally {
    await wallet.close();
  }
}
