import * as z from 'zod/mini';
import { describe } from '../internal/values.js';
import { refine } from './refine.js';
import { anything } from './rules.js';

const SAFE = Number.MAX_SAFE_INTEGER;

function koboProblem(value: unknown): string | undefined {
  if (value === undefined) return 'is required';
  if (typeof value !== 'number' || Number.isNaN(value))
    return `must be a number of Kobo, not ${describe(value)}`;
  if (!Number.isInteger(value)) {
    return `must be a whole number of Kobo, not ${value} (amounts are in Kobo; toKobo() converts Naira)`;
  }
  if (value <= 0) return `must be greater than 0, not ${value}`;
  if (!Number.isSafeInteger(value)) return `must be at most ${SAFE} Kobo`;
  return undefined;
}

// Every issue of an amount is worded from the value itself, whichever check caught it.
const koboError = (issue: { input?: unknown }): string =>
  koboProblem(issue.input) ?? 'must be a positive whole number of Kobo';

/**
 * A positive safe integer of Kobo (an integer schema, so the JSON Schema derived from it says so);
 * the messages say exactly what is wrong with anything else.
 */
const kobo: z.ZodMiniType<number> = z.int({ error: koboError }).check(z.positive({ error: koboError }));

const string = z.string({
  error: (issue) =>
    issue.input === undefined ? 'is required' : `must be a string, not ${describe(issue.input)}`,
});

/** A name or an id: text, not blank, well-formed UTF-16. */
const filled: z.ZodMiniType<string> = string.check(refine('filledText'));

/** Free text (a description, a reason): any string that is well-formed UTF-16. */
const freeText: z.ZodMiniType<string> = string.check(refine('wellFormedText'));

/** A reference: filled text, and no dot segment (it becomes a segment of the verify URL). */
const reference: z.ZodMiniType<string> = string.check(refine('referenceText'));

/** Any plain object of JSON values (the rule says what is not). */
const metadata: z.ZodMiniType<Record<string, unknown>> = z
  .custom<Record<string, unknown>>(anything)
  .check(refine('jsonMetadata'));

const authChannel = z.enum(['wallet_push', 'wallet_qr'], {
  error: (issue) => `must be 'wallet_push' or 'wallet_qr', not ${describe(issue.input)}`,
});

const params = { error: (issue: { input?: unknown }) => `must be an object, not ${describe(issue.input)}` };

/** Parameters of `charges.resolveHandle`. */
export const resolveHandleParams: z.ZodMiniType = z.strictObject(
  { handle: filled, amount: kobo, reference },
  params,
);

/** Parameters of `charges.dispatch`. */
export const dispatchParams: z.ZodMiniType = z.strictObject(
  {
    reference,
    bankId: filled,
    authChannel,
    description: z.optional(freeText),
    metadata: z.optional(metadata),
  },
  params,
);

/** The reference of `charges.verify`. */
export const verifyParams: z.ZodMiniType = z.strictObject({ reference }, params);

/** Parameters of `refunds.create`. */
export const refundParams: z.ZodMiniType = z
  .strictObject({ reference, amount: z.optional(kobo), reason: z.optional(freeText) }, params)
  .check(refine('amountGivenOrOmitted'));
