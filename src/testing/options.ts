/**
 * The rules the sandbox checks its options and arguments with, on top of the SDK's one option
 * checker (`core/options.ts`): a mistake (a wrong type, a negative delay, a misspelled name) is a
 * `ValidationError` naming every bad field at once, never a `TypeError` from deep inside or an
 * option silently ignored.
 */
import { describe } from '../internal/describe.js';
import { isPlainObject } from '../internal/plain.js';
import { checkOptions, ofType, throwIssues } from '../core/options.js';
import type { OptionRule } from '../core/options.js';
import type { ValidationIssue } from '../errors/validation.js';

/** Checks one value: a problem, problems at sub-paths, or `undefined`. @internal */
export type Rule = OptionRule;

/** A rule's answer as a list of issues at `path`. @internal */
export function issuesOf(problem: ReturnType<Rule>, path: string): ValidationIssue[] {
  if (problem === undefined) return [];
  return typeof problem === 'string' ? [{ path, message: problem }] : problem;
}

/** A rule for a nested plain object whose fields have their own rules. @internal */
export const object =
  (shape: Readonly<Record<string, Rule>>): Rule =>
  (value, path) =>
    isPlainObject(value)
      ? checkOptions(value, shape, path, 'a known option')
      : `must be an object (got ${describe(value)})`;

/** A non-empty string without lone surrogates (they cannot be encoded on the wire). @internal */
export const text: Rule = (value) => {
  if (typeof value !== 'string') return `must be a string (got ${describe(value)})`;
  if (value.trim() === '') return 'must not be empty';
  if (/\p{Cs}/u.test(value)) return 'must not contain lone surrogates';
  return undefined;
};

/** A number from `min` to `max`, inclusive (for a whole one, core's `wholeNumber`). @internal */
export const range =
  (min: number, max: number): Rule =>
  (value) => {
    if (typeof value !== 'number' || Number.isNaN(value)) return `must be a number (got ${describe(value)})`;
    if (value < min || value > max) return `must be from ${min} to ${max} (got ${value})`;
    return undefined;
  };

/** An `http:` or `https:` URL without query or fragment. @internal */
export const httpUrl: Rule = (value, path) => {
  const problem = text(value, path);
  if (problem !== undefined) return problem;
  const parsed = URL.canParse(value as string) ? new URL(value as string) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return `must be an http: or https: URL (got ${describe(value)})`;
  }
  if (parsed.search !== '' || parsed.hash !== '') return 'must not have a query or fragment';
  return undefined;
};

/** A function (fetch-dispatcher.ts and log.ts check with this name). @internal */
export const fn: Rule = ofType('function');

/** An array of at most `max` items, each passing `item`. @internal */
export const list =
  (item: Rule, max: number): Rule =>
  (value, path) => {
    if (!Array.isArray(value)) return `must be an array (got ${describe(value)})`;
    if (value.length > max) return `must have at most ${max} items (got ${value.length})`;
    return value.flatMap((inner: unknown, index) =>
      issuesOf(item(inner, `${path}.${index}`), `${path}.${index}`),
    );
  };

/** Checks one value against a rule, throwing a `ValidationError` for `context`. @internal */
export function checkValue(context: string, name: string, value: unknown, rule: Rule): void {
  throwIssues(context, issuesOf(rule(value, name), name));
}

/** A string argument of a sandbox function, for example the reference given to `authorize()`. @internal */
export function checkArgument(context: string, name: string, value: unknown): string {
  checkValue(context, name, value, text);
  return value as string;
}
