/**
 * The results the tools answer with: text a model reads, and the same facts as data. Amounts come
 * in Kobo and in Naira, statuses with what they mean.
 */
import type { ChargeDispatch, Refund, ResolvedCustomer, Transaction } from '@wallet/node';
import { amountText, chargeStatusMeaning, money, refundStatusMeaning } from './words.js';

/** What every tool's `execute` resolves to. It never throws. */
export interface ToolResult {
  /** True when the call was refused or failed; `text` says why and what to do. */
  isError: boolean;
  /** For the model: what happened, amounts in Naira and Kobo, and the next step. */
  text: string;
  /** The same, structured. A preview holds `confirmationToken` here. */
  data?: Record<string, unknown>;
}

/** A successful result. @internal */
export function ok(text: string, data: Record<string, unknown>): ToolResult {
  return { isError: false, text, data };
}

/** A refused or failed result. @internal */
export function refused(text: string, data: Record<string, unknown> = {}): ToolResult {
  return { isError: true, text, data };
}

/** A transaction as data. @internal */
export function transactionData(tx: Transaction): Record<string, unknown> {
  const data: Record<string, unknown> = {
    reference: tx.reference,
    status: tx.status,
    statusMeaning: chargeStatusMeaning(tx.status),
    amount: money(tx.amount),
    channel: tx.channel,
    customer: tx.customer,
  };
  if (typeof tx.fee === 'number') data['fee'] = money(tx.fee);
  if (typeof tx.netAmount === 'number') data['netAmount'] = money(tx.netAmount);
  if (tx.paidAt) data['paidAt'] = tx.paidAt;
  if (tx.settlement) data['settlement'] = tx.settlement;
  return data;
}

/** A transaction as text. @internal */
export function transactionText(tx: Transaction): string {
  const lines = [
    `Charge '${tx.reference}': ${tx.status}, ${chargeStatusMeaning(tx.status)}.`,
    `Amount ${amountText(tx.amount)}, customer ${tx.customer.handle} (${tx.customer.name}), channel ${tx.channel}.`,
  ];
  if (typeof tx.fee === 'number' && typeof tx.netAmount === 'number') {
    lines.push(`Fee ${amountText(tx.fee)}; the merchant receives ${amountText(tx.netAmount)}.`);
  }
  if (tx.paidAt) lines.push(`Paid at ${tx.paidAt}.`);
  return lines.join('\n');
}

/** A resolved customer as a result. @internal */
export function resolvedResult(resolved: ResolvedCustomer, amount: number, reference: string): ToolResult {
  const banks = resolved.linkedBanks.map(
    (bank) =>
      `${bank.bankName} ${bank.accountNumberMasked} (bankId '${bank.bankId}', mandate ${bank.mandateStatus})`,
  );
  const channels = resolved.availableAuthChannels.map(
    (channel) => `${channel.id}${channel.isRecommended ? ' (recommended)' : ''}`,
  );
  const text = [
    `Customer ${resolved.customer.handle} (${resolved.customer.name}).`,
    banks.length > 0
      ? `Banks with an active mandate: ${banks.join('; ')}.`
      : 'No bank with an active mandate: this customer cannot be charged now.',
    `Channels: ${channels.join(', ')}.`,
    `Reference '${reference}' is registered for ${amountText(amount)}. No money has moved.`,
  ].join('\n');
  return ok(text, {
    customer: resolved.customer,
    linkedBanks: resolved.linkedBanks,
    availableAuthChannels: resolved.availableAuthChannels,
    reference,
    amount: money(amount),
  });
}

/** A dispatched charge as a result. @internal */
export function dispatchResult(
  dispatch: ChargeDispatch,
  amount: number,
  customer: string,
  bank: string,
): ToolResult {
  const how =
    dispatch.authChannel === 'wallet_qr'
      ? `Show the customer this QR code to scan: ${dispatch.qrCodeUrl ?? '(no URL given)'}.`
      : 'The customer has a prompt in their app.';
  const text = [
    `Charge '${dispatch.reference}' of ${amountText(amount)} sent to ${customer} (${bank}): ${dispatch.status}, ${chargeStatusMeaning(dispatch.status)}.`,
    `${how} It expires at ${dispatch.expiresAt}. Not paid yet: call wait_for_charge or get_charge to learn the outcome; do not dispatch it again.`,
  ].join('\n');
  return ok(text, {
    reference: dispatch.reference,
    status: dispatch.status,
    statusMeaning: chargeStatusMeaning(dispatch.status),
    authChannel: dispatch.authChannel,
    amount: money(amount),
    expiresAt: dispatch.expiresAt,
    ...(dispatch.qrCodeUrl === undefined ? {} : { qrCodeUrl: dispatch.qrCodeUrl }),
  });
}

/** A refund as a result. @internal */
export function refundResult(refund: Refund, reference: string): ToolResult {
  const text = `Refund ${refund.refundReference} of ${amountText(refund.amount)} on charge '${reference}': ${refund.status}, ${refundStatusMeaning(refund.status)}.`;
  return ok(text, {
    reference,
    refundReference: refund.refundReference,
    amount: money(refund.amount),
    status: refund.status,
    statusMeaning: refundStatusMeaning(refund.status),
    ...(refund.refundedAt === undefined ? {} : { refundedAt: refund.refundedAt }),
  });
}
