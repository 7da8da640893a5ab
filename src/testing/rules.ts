/**
 * The words the sandbox's checks are written in: rules for one value (a text, a number in a range,
 * a URL, a list, a nested object, one value or a `[min, max]` of them), on the SDK's own
 * (`core/options.ts`), and the two ways of throwing their issues. `options.ts` writes the
 * sandbox's options in them; `sandbox.ts` checks the controls' arguments with them.
 */
import { checkOptions, throwIssues } from '../core/options.js';
import type { OptionRule } from '../core/options.js';
import type { ValidationIssue } from '../errors/base.js';
import { describe, isPlainObject } from '../internal/values.js';

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

/** `one`, or `[min, max]` of it with min <= max; `what` words one value in the message. @internal */
export const oneOrRange =
  (one: Rule, what: string): Rule =>
  (value, path) => {
    if (!Array.isArray(value)) return one(value, path);
    const [min, max] = value as unknown[];
    const bad = (bound: unknown): boolean => one(bound, path) !== undefined;
    if (value.length !== 2 || bad(min) || bad(max)) return `must be ${what}, or [min, max] of them`;
    return (min as number) <= (max as number) ? undefined : 'must be [min, max] with min <= max';
  };
