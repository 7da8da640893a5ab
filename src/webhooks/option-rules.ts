/**
 * The webhook entry's rules for the one option checker (`checkOptions` in core/options.ts, which
 * imports neither undici nor zod), and the throw that turns its issues into one `ValidationError`.
 */
import type { OptionRule } from '../core/options.js';
import { ValidationError, type ValidationIssue } from '../errors/validation.js';
import { describe } from '../schemas/describe.js';

/** The longest delay a timer can hold, in ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A rule for a whole number from `min` to `max`. */
export const wholeNumber =
  (min: number, max: number): OptionRule =>
  (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? undefined
      : `must be a whole number from ${min} to ${max}, not ${describe(value)}`;

/** Throws every issue at once, for `context` (for example `createWebhookHandler options`). */
export function throwIssues(context: string, issues: readonly ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationError(context, issues);
}
