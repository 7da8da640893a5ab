import * as z from 'zod';

// Loose objects keep fields the service adds later; enumerations are plain strings so a new
// status passes through. Only documented fields with the wrong type or missing are refused.
const str = z.string();
const int = z.number().int();

/** `data` of the resolve response. */
export const resolvedCustomer: z.ZodType = z.looseObject({
  customer: z.looseObject({ handle: str, name: str, avatarUrl: str }),
  availableAuthChannels: z.array(
    z.looseObject({ id: str, name: str, isRecommended: z.boolean().optional() }),
  ),
  linkedBanks: z.array(
    z.looseObject({
      bankId: str,
      bankName: str,
      bankCode: str,
      accountNumberMasked: str,
      mandateStatus: str,
    }),
  ),
});

/** `data` of the dispatch response. */
export const chargeDispatch: z.ZodType = z
  .looseObject({ reference: str, status: str, authChannel: str, qrCodeUrl: str.optional(), expiresAt: str })
  .superRefine((value, ctx) => {
    if (value.authChannel === 'wallet_qr' && value.qrCodeUrl === undefined) {
      ctx.addIssue({ code: 'custom', path: ['qrCodeUrl'], message: 'is required for a wallet_qr dispatch' });
    }
  });

const PAID_FIELDS = ['fee', 'netAmount', 'paidAt'] as const;

/** `data` of the verify response. */
export const transaction: z.ZodType = z
  .looseObject({
    reference: str,
    amount: int,
    currency: str,
    fee: int.nullish(),
    netAmount: int.nullish(),
    status: str,
    channel: str,
    customer: z.looseObject({ handle: str, phone: str, name: str }),
    // Settlement follows payment, so a SUCCESS charge may not be settled yet.
    settlement: z.looseObject({ status: str, settledAt: str }).nullish(),
    paidAt: str.nullish(),
  })
  .superRefine((value, ctx) => {
    if (value.status !== 'SUCCESS') return;
    for (const field of PAID_FIELDS) {
      if (value[field] == null) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'is required on a SUCCESS transaction' });
      }
    }
  });

/** `data` of the refund response. */
export const refund: z.ZodType = z.looseObject({
  refundReference: str,
  amount: int,
  currency: str,
  status: str,
  refundedAt: str.optional(),
});
