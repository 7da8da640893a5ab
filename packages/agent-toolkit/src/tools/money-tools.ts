/** The tools that move money: dispatch_charge and refund_charge, each through money-flow.ts. */
import type { AuthChannel, Transaction } from '@wallet/node';
import type { ToolContext } from './context.js';
import { perCallRefusal, refusalText } from '../spending/limits.js';
import { runMoneyCall } from './money-flow.js';
import { dispatchResult, refundResult, refused, type ToolResult } from '../answers/report.js';
import { amountText } from '../answers/words.js';

function withoutToken(args: Record<string, unknown>): {
  args: Record<string, unknown>;
  token: string | undefined;
} {
  const { confirmationToken, ...rest } = args;
  return { args: rest, token: confirmationToken as string | undefined };
}

/** dispatch_charge: resolve, pick the bank, dispatch; the amount is known before anything is sent. @internal */
export function dispatchCharge(ctx: ToolContext, input: Record<string, unknown>): Promise<ToolResult> {
  const { args, token } = withoutToken(input);
  const handle = args['handle'] as string;
  const amount = args['amount'] as number;
  const reference = args['reference'] as string;
  const authChannel = args['authChannel'] as AuthChannel;
  const bankId = args['bankId'] as string | undefined;
  const description = args['description'] as string | undefined;
  const bankWords =
    bankId === undefined ? "the customer's first bank with an active mandate" : `bank '${bankId}'`;
  return runMoneyCall(ctx, {
    tool: 'dispatch_charge',
    kind: 'charges',
    args,
    token,
    amount,
    summary: `charge ${handle} ${amountText(amount)} for reference '${reference}' from ${bankWords}, by ${authChannel}`,
    doing: `charging ${amountText(amount)} for '${reference}'`,
    async send(idempotencyKey) {
      // Two POSTs cannot share a key (the service replays a key's first answer), so resolve gets its own.
      const resolved = await ctx.wallet.charges.resolveHandle(
        { handle, amount, reference },
        idempotencyKey === undefined ? undefined : { idempotencyKey: `${idempotencyKey}-resolve` },
      );
      const banks = resolved.linkedBanks.filter((bank) => bank.mandateStatus === 'ACTIVE');
      const bank = bankId === undefined ? banks[0] : banks.find((b) => b.bankId === bankId);
      if (bank === undefined) {
        const known = banks.map((b) => `'${b.bankId}' (${b.bankName} ${b.accountNumberMasked})`).join(', ');
        const text =
          bankId === undefined
            ? `Refused: ${resolved.customer.handle} has no bank with an active mandate, so nothing was charged. Tell the user.`
            : `Refused: ${resolved.customer.handle} has no active bank '${bankId}', so nothing was charged. Their active banks: ${known || 'none'}.`;
        return { result: refused(text, { refusedBy: 'bank' }), moved: 0 };
      }
      const dispatched = await ctx.wallet.charges.dispatch(
        {
          reference,
          bankId: bank.bankId,
          authChannel,
          ...(description === undefined ? {} : { description }),
        },
        idempotencyKey === undefined ? undefined : { idempotencyKey },
      );
      const who = `${resolved.customer.handle} (${resolved.customer.name})`;
      return {
        result: dispatchResult(dispatched, amount, who, `${bank.bankName} ${bank.accountNumberMasked}`),
        moved: amount,
      };
    },
  });
}

/** refund_charge: the amount (or, for a full refund, the charge's amount from verify) is known first. @internal */
export async function refundCharge(ctx: ToolContext, input: Record<string, unknown>): Promise<ToolResult> {
  const { args, token } = withoutToken(input);
  const reference = args['reference'] as string;
  const requested = args['amount'] as number | undefined;
  const reason = args['reason'] as string | undefined;
  // An explicit amount over the limit is refused before even a verify is sent.
  const perCall = requested === undefined ? undefined : perCallRefusal(ctx.limits, 'refunds', requested);
  if (perCall) return refused(refusalText(perCall, 'refunds'), { refusedBy: perCall.limit });
  let tx: Transaction | undefined;
  // The preview shows what was paid; a full refund needs the amount to count it before sending.
  if (token === undefined || requested === undefined) {
    tx = await ctx.wallet.charges.verify(reference);
    if (tx.status !== 'SUCCESS') {
      return refused(
        `Refused: charge '${reference}' is ${tx.status}, not SUCCESS, so there is nothing to refund and nothing was sent.`,
        { refusedBy: 'status', status: tx.status },
      );
    }
    if (requested !== undefined && requested > tx.amount) {
      return refused(
        `Refused: ${amountText(requested)} is more than the ${amountText(tx.amount)} paid on '${reference}'. Nothing was sent.`,
        { refusedBy: 'amount' },
      );
    }
  }
  const amount = requested ?? tx!.amount;
  const what =
    requested === undefined ? `all that is left (at most ${amountText(amount)})` : amountText(amount);
  const paid = tx ? ` (paid ${amountText(tx.amount)} by ${tx.customer.handle}, ${tx.customer.name})` : '';
  return runMoneyCall(ctx, {
    tool: 'refund_charge',
    kind: 'refunds',
    args,
    token,
    amount,
    summary: `refund ${what} of charge '${reference}'${paid}`,
    doing: `refunding ${what} of '${reference}'`,
    async send(idempotencyKey) {
      const refund = await ctx.wallet.refunds.create(
        {
          reference,
          ...(requested === undefined ? {} : { amount: requested }),
          ...(reason === undefined ? {} : { reason }),
        },
        idempotencyKey === undefined ? undefined : { idempotencyKey },
      );
      return { result: refundResult(refund, reference), moved: refund.amount };
    },
  });
}
