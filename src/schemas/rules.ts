/**
 * The schemas' own rules, the ones no zod type says (blank text, broken UTF-16, JSON metadata, a
 * refund amount that is present but undefined, the fields a SUCCESS transaction must carry), written
 * once without zod. The zod schemas turn each into a refinement (`./refine.ts`), and the guards
 * generated from those schemas (`./guards.ts`) call the same function, so the first call
 * judges a value exactly as zod would without loading zod.
 *
 * Each rule answers `undefined` when the value keeps it (what every good call meets, allocating
 * nothing), else the issues, with their path within the value and their message.
 */
import { describe, isPlainObject } from '../internal/values.js';

/**
 * What a generated guard answers (`./guards-params.generated.ts`, `./guards-answers.generated.ts`):
 * the value as zod would give it, or this, which hands the value to zod to parse and word. Here,
 * beside the rules the guards call, so the generated files and `./guards.ts` import it without a cycle.
 */
export const FAIL: unique symbol = Symbol('fail');

/** A schema's guard: its output for a value zod accepts, or {@link FAIL}. */
export type Guard = (value: unknown) => unknown;

/** One thing a rule found wrong: where, within the value it was given, and what. */
export interface RuleIssue {
  path: string[];
  message: string;
}

/** What a rule answers: nothing wrong, or what is. */
export type RuleResult = RuleIssue[] | undefined;

// A lone surrogate is no character: it cannot be percent-encoded into a path or mean anything.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BROKEN_TEXT = 'contains an unpaired surrogate (broken UTF-16), which is not text';

const one = (message: string): RuleIssue[] => [{ path: [], message }];

/** Free text (a description, a reason): any string that is well-formed UTF-16. */
export function wellFormedText(value: string): RuleResult {
  return LONE_SURROGATE.test(value) ? one(BROKEN_TEXT) : undefined;
}

/** A name or an id: well-formed text that is not blank. */
export function filledText(value: string): RuleResult {
  return value.trim() === '' ? one('must not be empty') : wellFormedText(value);
}

/**
 * A reference: filled text, and not `.` or `..`, dot segments that as a path segment would move the
 * verify URL to another endpoint.
 */
export function referenceText(value: string): RuleResult {
  return filledText(value) ?? (value === '.' || value === '..' ? one(`must not be "${value}"`) : undefined);
}

/** The check of `z.custom()` that takes any value: its rules come after it. */
export function anything(): boolean {
  return true;
}

// Far deeper than any real metadata, and shallow enough that walking it cannot exhaust the stack.
const MAX_METADATA_DEPTH = 32;

/** Walks a value as JSON would, reporting what JSON cannot hold faithfully (20 at most). */
function jsonProblems(value: unknown, path: string[], seen: Set<object>, out: RuleIssue[]): void {
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
export function jsonMetadata(value: unknown): RuleResult {
  if (!isPlainObject(value)) return one(`must be a plain object of JSON values, not ${describe(value)}`);
  const problems: RuleIssue[] = [];
  jsonProblems(value, [], new Set(), problems);
  return problems.length > 0 ? problems : undefined;
}

/**
 * A refund's parameters: an amount that is present but undefined is most likely a bug upstream;
 * read as "refund everything" it would send money back that was never meant to go.
 */
export function amountGivenOrOmitted(value: Record<string, unknown>): RuleResult {
  if (!('amount' in value) || value.amount !== undefined) return undefined;
  return [{ path: ['amount'], message: 'is undefined; omit the key entirely for a full refund' }];
}

/** A dispatch answer: a wallet_qr dispatch carries the QR code's URL. */
export function qrCodeForQr(value: Record<string, unknown>): RuleResult {
  if (value.authChannel !== 'wallet_qr' || value.qrCodeUrl !== undefined) return undefined;
  return [{ path: ['qrCodeUrl'], message: 'is required for a wallet_qr dispatch' }];
}

const PAID_FIELDS = ['fee', 'netAmount', 'paidAt'] as const;

/** A transaction answer: a SUCCESS charge carries its fee, net amount and time of payment. */
export function paidFields(value: Record<string, unknown>): RuleResult {
  if (value.status !== 'SUCCESS') return undefined;
  let issues: RuleIssue[] | undefined;
  for (const field of PAID_FIELDS) {
    if (value[field] == null)
      (issues ??= []).push({ path: [field], message: 'is required on a SUCCESS transaction' });
  }
  return issues;
}
