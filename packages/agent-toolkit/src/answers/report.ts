/** The results the tools answer with: text a model reads, and the same facts as data. */
import type { ChargeDispatch, Refund, ResolvedCustomer, Transaction } from '@wallet/node';
import { amountText, chargeStatusMeaning, dataLine, money, refundStatusMeaning } from './words.js';

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

// Amounts are Kobo only in Naira: another currency's are not shown as Naira, nor counted as Kobo.
const FOREIGN =
  'The service reports this charge in another currency than Naira (NGN, see currency below): this toolkit shows no Naira amount for it and cannot refund it.';

/** Whether the service reports `tx` in Naira, the only currency whose amounts are Kobo. @internal */
export function inNaira(tx: Transaction): boolean {
  return tx.currency === 'NGN';
}

/** A transaction as data. @internal */
export function transactionData(tx: Transaction): Record<string, unknown> {
  const amount = inNaira(tx) ? money : (value: number): number => value;
  const data: Record<string, unknown> = {
    reference: tx.reference,
    status: tx.status,
    statusMeaning: chargeStatusMeaning(tx.status),
    amount: amount(tx.amount),
    ...(inNaira(tx) ? {} : { currency: tx.currency }),
    channel: tx.channel,
    customer: tx.customer,
  };
  if (typeof tx.fee === 'number') data['fee'] = amount(tx.fee);
  if (typeof tx.netAmount === 'number') data['netAmount'] = amount(tx.netAmount);
  if (tx.paidAt) data['paidAt'] = tx.paidAt;
  if (tx.settlement) data['settlement'] = tx.settlement;
  return data;
}

/** A transaction as text: the toolkit's words, then what the service said as quoted data. @internal */
export function transactionText(tx: Transaction): string {
  const naira = inNaira(tx);
  const lines = [
    `Charge: ${chargeStatusMeaning(tx.status)}.`,
    naira ? `Amount ${amountText(tx.amount)}.` : FOREIGN,
  ];
  if (naira && typeof tx.fee === 'number' && typeof tx.netAmount === 'number') {
    lines.push(`Fee ${amountText(tx.fee)}; the merchant receives ${amountText(tx.netAmount)}.`);
  }
  const { reference, status, channel, customer, paidAt, currency, amount, fee, netAmount } = tx;
  const amounts = naira ? {} : { currency, amount, fee, netAmount };
  lines.push(
    dataLine('The charge as the service reports it', {
      reference,
      status,
      ...amounts,
      channel,
      customer,
      paidAt,
    }),
  );
  return lines.join('\n');
}

/** A resolved customer as a result, with the next step this agent can take. @internal */
export function resolvedResult(
  resolved: ResolvedCustomer,
  amount: number,
  reference: string,
  canCharge: boolean,
): ToolResult {
  const { customer, linkedBanks, availableAuthChannels } = resolved;
  const shown = { customer, linkedBanks, availableAuthChannels };
  const active = linkedBanks.filter((bank) => bank.mandateStatus === 'ACTIVE').length;
  const text = [
    `Customer found, with ${active} bank(s) with an active mandate${active === 0 ? ': this customer cannot be charged now' : ''}.`,
    `The reference is registered for ${amountText(amount)}. No money has moved.`,
    dataLine('The customer as the service reports it', { reference, ...shown }),
    canCharge
      ? 'To charge, use dispatch_charge with the same handle, amount and reference.'
      : 'This agent cannot charge (dispatch_charge is not allowed): a person must send the charge.',
  ].join('\n');
  return ok(text, { ...shown, reference, amount: money(amount) });
}

/** A dispatched charge as a result. @internal */
export function dispatchResult(
  dispatch: ChargeDispatch,
  amount: number,
  customer: Record<string, unknown>,
): ToolResult {
  const how =
    dispatch.authChannel === 'wallet_qr'
      ? 'Show the customer the QR code (qrCodeUrl below) to scan.'
      : 'The customer has a prompt in their app.';
  const shown = {
    reference: dispatch.reference,
    status: dispatch.status,
    authChannel: dispatch.authChannel,
    expiresAt: dispatch.expiresAt,
    ...(dispatch.qrCodeUrl === undefined ? {} : { qrCodeUrl: dispatch.qrCodeUrl }),
    ...customer,
  };
  const text = [
    `Charge of ${amountText(amount)} sent: ${chargeStatusMeaning(dispatch.status)}.`,
    `${how} Not paid yet: call wait_for_charge or get_charge to learn the outcome; do not dispatch it again.`,
    dataLine('The charge as the service reports it', shown),
  ].join('\n');
  return ok(text, { ...shown, statusMeaning: chargeStatusMeaning(dispatch.status), amount: money(amount) });
}

/** A refund as a result: counted at what was sent, whatever the answer says. @internal */
export function refundResult(refund: Refund, reference: string, sent: number): ToolResult {
  const shown = {
    reference,
    refundReference: refund.refundReference,
    status: refund.status,
    ...(refund.refundedAt === undefined ? {} : { refundedAt: refund.refundedAt }),
  };
  const text = [
    `Refund of ${amountText(sent)}: ${refundStatusMeaning(refund.status)}.`,
    dataLine('The refund as the service reports it', { ...shown, amount: refund.amount }),
  ].join('\n');
  return ok(text, { ...shown, amount: money(sent), statusMeaning: refundStatusMeaning(refund.status) });
}
