import { ValidationError, type ValidationIssue } from '../errors/validation.js';
import { closest, describe } from '../internal/describe.js';

/** Checks one option's value: a problem, a list of problems at sub-paths, or undefined when fine. */
export type OptionRule = (value: unknown, path: string) => string | ValidationIssue[] | undefined;

/** The largest signed 32-bit integer. */
export const MAX_INT32 = 2_147_483_647;

/** The longest delay a timer can hold, in ms (longer ones fire at once). */
export const MAX_TIMER_MS: number = MAX_INT32;

const join = (where: string, name: string): string => (where ? `${where}.${name}` : name);

/**
 * The one option checker (client options, request options, helper options): the value must be a
 * plain object, every name must be known (a typo gets "did you mean"), and each value present
 * must pass its rule. Getters that throw are reported, not propagated.
 *
 * @param expected - how a known name is described, for example `an option of Wallet`.
 */
export function checkOptions(
  value: unknown,
  rules: Readonly<Record<string, OptionRule>>,
  where: string,
  expected: string,
): ValidationIssue[] {
  if (value === undefined) return [];
  let given: string[];
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return [{ path: where, message: `must be an object, not ${describe(value)}` }];
    }
    given = Object.keys(value);
  } catch {
    // A revoked Proxy, or one whose ownKeys trap throws: nothing in it can be trusted.
    return [{ path: where, message: 'could not be read (a Proxy that throws?); pass a plain object' }];
  }
  const issues: ValidationIssue[] = [];
  const names = Object.keys(rules);
  for (const name of given) {
    const path = join(where, name);
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (!rule) {
      const guess = closest(name, names);
      issues.push({ path, message: `is not ${expected}${guess ? ` (did you mean '${guess}'?)` : ''}` });
      continue;
    }
    let item: unknown;
    try {
      item = (value as Record<string, unknown>)[name];
    } catch {
      issues.push({ path, message: 'could not be read (its getter threw)' });
      continue;
    }
    if (item === undefined) continue;
    const problem = rule(item, path);
    if (typeof problem === 'string') issues.push({ path, message: problem });
    else if (problem) issues.push(...problem);
  }
  return issues;
}

/** A rule for an option that must be of one `typeof`. */
export const ofType =
  (type: 'string' | 'number' | 'boolean' | 'function' | 'object'): OptionRule =>
  (value) =>
    typeof value === type && value !== null ? undefined : `must be a ${type}, not ${describe(value)}`;

/** A rule for a whole number from `min` to `max`, inclusive. */
export const wholeNumber =
  (min: number, max: number): OptionRule =>
  (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? undefined
      : `must be a whole number from ${min} to ${max}, not ${describe(value)}`;

/** Throws every issue at once as one `ValidationError` for `context` (for example `createWebhookHandler options`). */
export function throwIssues(context: string, issues: readonly ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationError(context, issues);
}
