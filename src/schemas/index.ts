/**
 * The zod schemas (`zod/mini`: a third of the load time) of every call's parameters and answer,
 * loaded on a client's first call; `@wallet/agent-toolkit` derives its tools' JSON Schemas from them.
 */
import { en } from 'zod/locales';
import type { ValidationIssue } from '../errors/base.js';
import * as z from 'zod/mini';
import { $ZodObjectJIT, type $ZodCheck, type $ZodType } from 'zod/v4/core';
import { closest, describe, isPlainObject } from '../internal/values.js';

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

/** A positive safe integer of Kobo (an integer schema, so the derived JSON Schema says so). */
const kobo: z.ZodMiniType<number> = z.int({ error: koboError }).check(z.positive({ error: koboError }));

const string = z.string({
  error: (issue) =>
    issue.input === undefined ? 'is required' : `must be a string, not ${describe(issue.input)}`,
});

// A lone surrogate is no character: it cannot be percent-encoded into a path or mean anything.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BROKEN_TEXT = 'contains an unpaired surrogate (broken UTF-16), which is not text';

/** One thing a rule found wrong: where, within the value it was given, and what. */
type Issue = { path: string[]; message: string };

/** A zod refinement that reports each issue `rule` finds in a value (none: the value keeps it). */
export function refine<T>(rule: (value: T) => Issue[] | undefined): z.core.$ZodCheck<T> {
  return z.superRefine<T>((value, ctx) => {
    for (const { path, message } of rule(value) ?? []) ctx.addIssue({ code: 'custom', path, message });
  });
}

const one = (message: string): Issue[] => [{ path: [], message }];
const wellFormed = (value: string): Issue[] | undefined =>
  LONE_SURROGATE.test(value) ? one(BROKEN_TEXT) : undefined;
const filledText = (value: string): Issue[] | undefined =>
  value.trim() === '' ? one('must not be empty') : wellFormed(value);

/** A name or an id: text, not blank, well-formed UTF-16. */
const filled: z.ZodMiniType<string> = string.check(refine(filledText));

/** Free text (a description, a reason): any string that is well-formed UTF-16. */
const freeText: z.ZodMiniType<string> = string.check(refine(wellFormed));

/** A reference: filled text, never `.` or `..`, which would move the verify URL to another endpoint. */
const reference: z.ZodMiniType<string> = string.check(
  refine(
    (value: string) =>
      filledText(value) ?? (value === '.' || value === '..' ? one(`must not be "${value}"`) : undefined),
  ),
);

// Far deeper than any real metadata, and shallow enough that walking it cannot exhaust the stack.
const MAX_METADATA_DEPTH = 32;

/** Walks a value as JSON would, reporting what JSON cannot hold faithfully (20 at most). */
function jsonProblems(value: unknown, path: string[], seen: Set<object>, out: Issue[]): void {
  if (out.length >= 20) return;
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) out.push({ path, message: BROKEN_TEXT });
    return;
  }
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push({ path, message: `must be JSON; ${value} is not` });
    return;
  }
  if (typeof value !== 'object') {
    out.push({ path, message: `must be a JSON value, not ${describe(value)}` });
    return;
  }
  if (seen.has(value)) {
    out.push({ path, message: 'refers back to itself (a cycle cannot be sent as JSON)' });
    return;
  }
  if (!Array.isArray(value) && !isPlainObject(value)) {
    out.push({ path, message: `must be a plain JSON value, not ${describe(value)}` });
    return;
  }
  if (path.length >= MAX_METADATA_DEPTH) {
    out.push({ path, message: `is nested deeper than ${MAX_METADATA_DEPTH} levels` });
    return;
  }
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    if (LONE_SURROGATE.test(key)) out.push({ path: [...path, key], message: `its key ${BROKEN_TEXT}` });
    else jsonProblems(item, [...path, key], seen, out);
  }
  seen.delete(value);
}

/** A charge's metadata: a plain object of JSON values that JSON holds faithfully. */
const metadata: z.ZodMiniType<Record<string, unknown>> = z
  .custom<Record<string, unknown>>(() => true)
  .check(
    refine((value: unknown) => {
      if (!isPlainObject(value)) return one(`must be a plain object of JSON values, not ${describe(value)}`);
      const problems: Issue[] = [];
      jsonProblems(value, [], new Set(), problems);
      return problems.length > 0 ? problems : undefined;
    }),
  );

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

/**
 * Parameters of `refunds.create`. An amount that is present but undefined is most likely a bug
 * upstream; read as "refund everything" it would send money back that was never meant to go.
 */
export const refundParams: z.ZodMiniType = z
  .strictObject({ reference, amount: z.optional(kobo), reason: z.optional(freeText) }, params)
  .check(
    refine((value: Record<string, unknown>) =>
      'amount' in value && value.amount === undefined
        ? [{ path: ['amount'], message: 'is undefined; omit the key entirely for a full refund' }]
        : undefined,
    ),
  );

// Enumerations are plain strings, so a new status passes; refused: a documented field missing or mistyped, a negative amount.
const str = z.string();

// An answer's object, new fields passing: zod's compiled object reads a verify's answer in half the time
// (docs/performance.md); where `eval` is refused (Workers), zod interprets it.
function answerObject(
  shape: Record<string, $ZodType>,
  rule?: (value: Record<string, unknown>) => Issue[] | undefined,
): z.ZodMiniType {
  const checks = rule === undefined ? [] : [refine(rule) as $ZodCheck<never>];
  return new $ZodObjectJIT({
    type: 'object',
    shape,
    catchall: z.unknown(),
    checks,
  }) as unknown as z.ZodMiniType;
}
const answeredKobo = z.int().check(z.nonnegative({ error: 'must not be negative (an amount in Kobo)' }));

/** `data` of the resolve response. */
export const resolvedCustomer: z.ZodMiniType = answerObject({
  customer: answerObject({ handle: str, name: str, avatarUrl: str }),
  availableAuthChannels: z.array(
    answerObject({ id: str, name: str, isRecommended: z.optional(z.boolean()) }),
  ),
  linkedBanks: z.array(
    answerObject({ bankId: str, bankName: str, bankCode: str, accountNumberMasked: str, mandateStatus: str }),
  ),
});

/** `data` of the dispatch response. A wallet_qr dispatch carries the QR code's URL. */
export const chargeDispatch: z.ZodMiniType = answerObject(
  { reference: str, status: str, authChannel: str, qrCodeUrl: z.optional(str), expiresAt: str },
  (value) =>
    value.authChannel === 'wallet_qr' && value.qrCodeUrl === undefined
      ? [{ path: ['qrCodeUrl'], message: 'is required for a wallet_qr dispatch' }]
      : undefined,
);

const PAID_FIELDS = ['fee', 'netAmount', 'paidAt'] as const;

/** `data` of the verify response. A SUCCESS charge carries its fee, net amount and time of payment. */
export const transaction: z.ZodMiniType = answerObject(
  {
    reference: str,
    amount: answeredKobo,
    currency: str,
    fee: z.nullish(answeredKobo),
    netAmount: z.nullish(answeredKobo),
    status: str,
    channel: str,
    customer: answerObject({ handle: str, phone: str, name: str }),
    // Settlement follows payment, so a SUCCESS charge may not be settled yet.
    settlement: z.nullish(answerObject({ status: str, settledAt: str })),
    paidAt: z.nullish(str),
  },
  (value) =>
    value.status !== 'SUCCESS'
      ? undefined
      : PAID_FIELDS.filter((field) => value[field] == null).map((field) => ({
          path: [field],
          message: 'is required on a SUCCESS transaction',
        })),
);

/** `data` of the refund response. */
export const refund: z.ZodMiniType = answerObject({
  refundReference: str,
  amount: answeredKobo,
  currency: str,
  status: str,
  refundedAt: z.optional(str),
});

// zod/mini carries no messages of its own; the English ones word what a documented field broke.
z.config(en());

/** A schema of this module by name: calls name theirs, so only this module imports zod. */
export type SchemaName =
  | 'resolveHandleParams'
  | 'dispatchParams'
  | 'verifyParams'
  | 'refundParams'
  | 'resolvedCustomer'
  | 'chargeDispatch'
  | 'transaction'
  | 'refund';

// Compiling a check costs ~1.3 ms once: a process making few calls (a cold start) never pays it (docs/performance.md).
const WARM = 256;
const INTERPRETED = { jitless: true };
let checks = 0;

/** The outcome of {@link check}. */
export type Checked = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/** Runs a schema; zod's issues become the SDK's, one per field, a misspelled key with its likely intent. */
export function check(schema: z.ZodMiniType, value: unknown, prefix = ''): Checked {
  const result = z.safeParse(schema, value, ++checks > WARM ? undefined : INTERPRETED);
  if (result.success) return { ok: true, value: result.data };
  const known = Object.keys((schema as { shape?: object }).shape ?? {});
  const issues: ValidationIssue[] = [];
  for (const issue of result.error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const guess = closest(key, known);
        // resolveHandle takes a customer "by handle or phone" in the one field the service has.
        const phone = known.includes('handle') && /^(phone|mobile|msisdn)/i.test(key);
        issues.push({
          path: [path, key].filter(Boolean).join('.'),
          message: phone
            ? 'is not a known parameter: a phone number goes in handle, as given'
            : `is not a known parameter${guess ? ` (did you mean '${guess}'?)` : ''}`,
        });
      }
    } else {
      issues.push({ path, message: issue.message });
    }
  }
  return { ok: false, issues };
}
