import { ValidationError, type ValidationIssue } from '../errors/base.js';
import { closest, describe } from '../internal/values.js';

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

/**
 * What is wrong with a secret key, said precisely, without ever repeating the key or any part of it:
 * not even a fragment ends up in an error, a log or a bug report.
 */

const PREFIX = /^sk_(live|test)_/;
/** The longest key the SDK accepts: the prefix and 500 characters. */
const MAX_KEY_LENGTH = 508;
// Characters that paste invisibly: zero-width spaces and joiners, the BOM, soft hyphens, bidi marks.
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/;

/** The place of the first match, counted from 1, for a message ("at character 17"). */
function at(key: string, pattern: RegExp): number {
  return key.search(pattern) + 1;
}

/**
 * The problem with a key, or undefined when it is well formed. `name` says where it came from, so
 * the fix names the right thing: the `apiKey` option or the `WALLET_SECRET_KEY` variable.
 */
export function keyProblem(key: unknown, name: string): string | undefined {
  if (typeof key !== 'string') return `must be a string, got ${key === null ? 'null' : typeof key}`;
  if (INVISIBLE.test(key)) {
    return (
      `contains an invisible character (a zero-width space or similar) at character ${at(key, INVISIBLE)}: ` +
      `copy the key again from the dashboard and set ${name} with it`
    );
  }
  // After the invisible characters: JavaScript counts a BOM as whitespace.
  if (/^\s|\s$/.test(key)) {
    return 'has leading or trailing whitespace (check how it is loaded from your env file)';
  }
  if (/\s/.test(key)) {
    return `contains whitespace at character ${at(key, /\s/)}: a key is one word, with no spaces or line breaks`;
  }
  if (key.length > MAX_KEY_LENGTH) {
    return (
      `is ${key.length} characters long, longer than any key (at most ${MAX_KEY_LENGTH}): check that ` +
      `${name} holds only the key`
    );
  }
  if (/[^\x21-\x7e]/.test(key)) {
    return `contains a character that is not printable ASCII at character ${at(key, /[^\x21-\x7e]/)}`;
  }
  if (/^[pr]k_/.test(key)) {
    return 'looks like a public or restricted key; the SDK needs a secret key starting with sk_live_ or sk_test_';
  }
  if (!PREFIX.test(key)) {
    return `must start with sk_live_ or sk_test_ (got ${key.length} characters that do not)`;
  }
  if (key.replace(PREFIX, '') === '') return 'has nothing after its sk_live_ or sk_test_ prefix';
  return undefined;
}
