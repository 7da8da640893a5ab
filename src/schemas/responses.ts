import * as z from 'zod/mini';
import { refine } from './requests.js';

// Loose objects keep fields the service adds later; enumerations are plain strings so a new
// status passes through. Only documented fields with the wrong type or missing are refused, and
// amounts below zero: money never comes back negative, and a negative one is a broken response.
const str = z.string();
const kobo = z.int().check(z.nonnegative({ error: 'must not be negative (an amount in Kobo)' }));

/** `data` of the resolve response. */
export const resolvedCustomer: z.ZodMiniType = z.looseObject({
  customer: z.looseObject({ handle: str, name: str, avatarUrl: str }),
  availableAuthChannels: z.array(
    z.looseObject({ id: str, name: str, isRecommended: z.optional(z.boolean()) }),
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
export const chargeDispatch: z.ZodMiniType = z
  .looseObject({ reference: str, status: str, authChannel: str, qrCodeUrl: z.optional(str), expiresAt: str })
  // A wallet_qr dispatch carries the QR code's URL.
  .check(
    refine((value: Record<string, unknown>) =>
      value.authChannel === 'wallet_qr' && value.qrCodeUrl === undefined
        ? [{ path: ['qrCodeUrl'], message: 'is required for a wallet_qr dispatch' }]
        : undefined,
    ),
  );

const PAID_FIELDS = ['fee', 'netAmount', 'paidAt'] as const;

/** `data` of the verify response. */
export const transaction: z.ZodMiniType = z
  .looseObject({
    reference: str,
    amount: kobo,
    currency: str,
    fee: z.nullish(kobo),
    netAmount: z.nullish(kobo),
    status: str,
    channel: str,
    customer: z.looseObject({ handle: str, phone: str, name: str }),
    // Settlement follows payment, so a SUCCESS charge may not be settled yet.
    settlement: z.nullish(z.looseObject({ status: str, settledAt: str })),
    paidAt: z.nullish(str),
  })
  // A SUCCESS charge carries its fee, net amount and time of payment.
  .check(
    refine((value: Record<string, unknown>) =>
      value.status !== 'SUCCESS'
        ? undefined
        : PAID_FIELDS.filter((field) => value[field] == null).map((field) => ({
            path: [field],
            message: 'is required on a SUCCESS transaction',
          })),
    ),
  );

/** `data` of the refund response. */
export const refund: z.ZodMiniType = z.looseObject({
  refundReference: str,
  amount: kobo,
  currency: str,
  status: str,
  refundedAt: z.optional(str),
});
