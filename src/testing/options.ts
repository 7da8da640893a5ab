/**
 * The sandbox's one option checker. Every public sandbox function and option goes through it, so
 * a mistake (a wrong type, a negative delay, a misspelled name) is a `ValidationError` naming the
 * field, never a `TypeError` from deep inside or an option silently ignored.
 */
import { ValidationError } from '../errors/validation.js';
import type { ValidationIssue } from '../errors/validation.js';
import { closest, describe } from '../schemas/describe.js';

/** Checks one value; returns what is wrong with it, or `undefined`. @internal */
export type Rule = (value: unknown, path: string, issues: ValidationIssue[]) => string | undefined;

/** The rules of an object's known fields; absent (`undefined`) fields are not checked. @internal */
export type Shape = Record<string, Rule>;

/** True for `{}` and objects made by `Object.create(null)`, not arrays, dates or class instances. @internal */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Checks the fields of an object against a shape, adding one issue per problem. @internal */
export function checkShape(value: unknown, shape: Shape, path: string, issues: ValidationIssue[]): void {
  if (!isPlainObject(value)) {
    issues.push({ path, message: `must be an object (got ${describe(value)})` });
    return;
  }
  const known = Object.keys(shape);
  for (const key of Object.keys(value)) {
    const field = path ? `${path}.${key}` : key;
    const rule = shape[key];
    if (rule === undefined || !Object.hasOwn(shape, key)) {
      const guess = closest(key, known);
      issues.push({
        path: field,
        message: `is not a known option${guess ? ` (did you mean '${guess}'?)` : ''}`,
      });
      continue;
    }
    const inner = value[key];
    if (inner === undefined) continue;
    const problem = rule(inner, field, issues);
    if (problem !== undefined) issues.push({ path: field, message: problem });
  }
}

/** Throws a `ValidationError` for `context` when `check` finds problems. @internal */
export function validate(context: string, check: (issues: ValidationIssue[]) => void): void {
  const issues: ValidationIssue[] = [];
  check(issues);
  if (issues.length > 0) throw new ValidationError(context, issues);
}

/** Checks an options object (absent is fine) against a shape. @internal */
export function checkOptions(context: string, value: unknown, shape: Shape): void {
  if (value === undefined) return;
  validate(context, (issues) => checkShape(value, shape, '', issues));
}

/** A rule for a nested object with its own shape. @internal */
export const object =
  (shape: Shape): Rule =>
  (value, path, issues) => {
    checkShape(value, shape, path, issues);
    return undefined;
  };

/** A non-empty string without lone surrogates (they cannot be encoded on the wire). @internal */
export const text: Rule = (value) => {
  if (typeof value !== 'string') return `must be a string (got ${describe(value)})`;
  if (value.trim() === '') return 'must not be empty';
  if (/\p{Cs}/u.test(value)) return 'must not contain lone surrogates';
  return undefined;
};

/** A number of milliseconds, or any bounded number, inclusive. @internal */
export const range =
  (min: number, max: number, integer = false): Rule =>
  (value) => {
    const kind = integer ? 'a whole number' : 'a number';
    if (typeof value !== 'number' || Number.isNaN(value)) return `must be ${kind} (got ${describe(value)})`;
    if (integer && !Number.isInteger(value)) return `must be ${kind} (got ${value})`;
    if (value < min || value > max) return `must be from ${min} to ${max} (got ${value})`;
    return undefined;
  };

/** An `http:` or `https:` URL. @internal */
export const httpUrl: Rule = (value) => {
  const problem = text(value, '', []);
  if (problem !== undefined) return problem;
  const parsed = URL.canParse(value as string) ? new URL(value as string) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return `must be an http: or https: URL (got ${describe(value)})`;
  }
  if (parsed.search !== '' || parsed.hash !== '') return 'must not have a query or fragment';
  return undefined;
};

/** A function. @internal */
export const fn: Rule = (value) =>
  typeof value === 'function' ? undefined : `must be a function (got ${describe(value)})`;

/** An array whose items each pass `item`, at most `max` long. @internal */
export const list =
  (item: Rule, max: number): Rule =>
  (value, path, issues) => {
    if (!Array.isArray(value)) return `must be an array (got ${describe(value)})`;
    if (value.length > max) return `must have at most ${max} items (got ${value.length})`;
    value.forEach((inner: unknown, index) => {
      const problem = item(inner, `${path}.${index}`, issues);
      if (problem !== undefined) issues.push({ path: `${path}.${index}`, message: problem });
    });
    return undefined;
  };

/** A string argument of a sandbox function, for example the reference given to `authorize()`. @internal */
export function checkArgument(context: string, name: string, value: unknown): string {
  validate(context, (issues) => {
    const problem = text(value, name, issues);
    if (problem !== undefined) issues.push({ path: name, message: problem });
  });
  return value as string;
}
