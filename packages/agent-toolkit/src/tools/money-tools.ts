/** The tools that move money: dispatch_charge and refund_charge, each through money-flow.ts. */
import type { DispatchParams, RefundParams, ResolveHandleParams } from '@wallet/node';
import type { ToolRun } from './options.js';
import { overLimit, limitRefused } from '../spending/limits.js';
import { callOf, overPaid, runMoneyCall } from './money-flow.js';
import { countedRefunds, repeats } from '../spending/ledger.js';
import { dispatchResult, inNaira, refundResult, refused } from '../answers/report.js';
import { amountText, dataLine } from '../answers/words.js';

// dispatch_charge's checked input (shapes.ts), where bankId is optional.
type DispatchArgs = ResolveHandleParams & Omit<DispatchParams, 'bankId'> & { bankId?: string };

/** dispatch_charge: resolve, pick the bank, dispatch; the amount is known before anything is sent. @internal */
export const dispatchCharge: ToolRun = (ctx, args, token, callId) => {
  const { handle, amount, reference, authChannel, bankId, description } = args as unknown as DispatchArgs;
  const bankWords =
    bankId === undefined ? "the customer's first bank with an active mandate" : 'the bank named';
  return runMoneyCall(ctx, {
    tool: 'dispatch_charge',
    kind: 'charges',
    args,
    sent: args,
    reference,
    token,
    callId,
    amount,
    summary: `send a payment prompt for ${amountText(amount)} to the customer below, debiting ${bankWords}`,
    async send(key) {
      // Two POSTs cannot share a key (the service replays a key's first answer), so resolve gets its own.
      const resolved = await ctx.wallet.charges.resolveHandle(
        { handle, amount, reference },
        { idempotencyKey: `${key}-resolve` },
      );
      const banks = resolved.linkedBanks.filter((bank) => bank.mandateStatus === 'ACTIVE');
      const bank = bankId === undefined ? banks[0] : banks.find((b) => b.bankId === bankId);
      if (bank === undefined) {
        const text = [
          `Refused: nothing was charged, the customer has no ${bankId === undefined ? 'bank with an active mandate' : 'active bank with that bankId'}. Tell the user.`,
          dataLine('Their active banks', banks),
        ].join('\n');
        return { result: refused(text, { refusedBy: 'bank' }), acted: false };
      }
      const params = {
        reference,
        bankId: bank.bankId,
        authChannel,
        ...(description === undefined ? {} : { description }),
      };
      const dispatched = await ctx.wallet.charges.dispatch(params, { idempotencyKey: key });
      const customer = {
        customer: resolved.customer,
        bank: { bankId: bank.bankId, bankName: bank.bankName, accountNumberMasked: bank.accountNumberMasked },
      };
      return { result: dispatchResult(dispatched, amount, customer), acted: true };
    },
  });
};

/** refund_charge: always an explicit amount (asked, or what the journal leaves), so nothing beyond the count is refunded. @internal */
export const refundCharge: ToolRun = async (ctx, args, token, callId) => {
  const { reference, amount: requested, reason } = args as unknown as RefundParams;
  // An explicit amount over the limit is refused before even a verify is sent.
  const perCall = requested === undefined ? undefined : overLimit(ctx.limits, 'refunds', 'per', requested);
  if (perCall) return limitRefused(perCall, 'refunds');
  const tx = await ctx.wallet.charges.verify(reference);
  if (tx.status !== 'SUCCESS') {
    return refused(
      `Refused: the charge is not paid (SUCCESS), so there is nothing to refund and nothing was sent.\n${dataLine('Its status', tx.status)}`,
      { refusedBy: 'status', status: tx.status },
    );
  }
  // Limits and the journal count Kobo: an amount in another currency would pass them unmeasured.
  if (!inNaira(tx)) {
    return refused(
      `Refused: nothing was sent. The service reports this charge in another currency than Naira (NGN), and this toolkit counts every amount and limit in Kobo, so it cannot refund it: tell the user a person must.\n${dataLine('Its currency', tx.currency)}`,
      { refusedBy: 'currency' },
    );
  }
  const { refunds, counted } = countedRefunds(await ctx.ledger.journal(reference));
  const prior = refunds.find((entry) => repeats(entry, callOf('refund_charge', args), token, ctx.now()));
  const left = tx.amount - counted;
  const amount = prior?.amount ?? requested ?? left;
  // Checked here for the preview and again in the ledger's step, where a concurrent refund counts.
  if (prior === undefined && (left <= 0 || amount > left)) return overPaid(tx.amount, counted);
  const sent = { reference, amount, ...(reason === undefined ? {} : { reason }) };
  const what = requested === undefined ? `all that is left, ${amountText(amount)},` : amountText(amount);
  return runMoneyCall(ctx, {
    tool: 'refund_charge',
    kind: 'refunds',
    args,
    sent,
    reference,
    token,
    callId,
    amount,
    paid: tx.amount,
    summary: `refund ${what} of a charge paid ${amountText(tx.amount)}`,
    context: { customer: tx.customer, status: tx.status },
    async send(key) {
      const refund = await ctx.wallet.refunds.create(sent, { idempotencyKey: key });
      return { result: refundResult(refund, reference, amount), acted: true };
    },
  });
};
