import type * as SchemaModule from '../schemas/index.js';
import type { SchemaName } from '../schemas/guards.js';
import { ValidationError, type ValidationIssue } from '../errors/base.js';
import type { Scrubber } from './scrub.js';
import { isPlainObject } from '../internal/values.js';

/**
 * Checking the values a call carries. Its parameters are read once into a plain copy
 * (`snapshot`, below), so the copy that is checked is the copy that is sent. Then zod, on demand: every call's parameters and every answer meet their generated guard first
 * (`../schemas/guards.ts`), and zod's schemas load once, by the first value a guard does not
 * accept, to judge it and word every issue. A client whose calls and answers all pass never loads
 * them.
 *
 * Loading can fail (a bundle that left the schemas file out, a process out of file handles). That
 * never escapes as a bare `Error`: before sending, the call ends in a `ValidationError` (nothing
 * sent); after an answer, in a `ResponseValidationError` that keeps the call's account, so a POST
 * whose answer could not be checked still says its outcome is unknown and names its key.
 */

/** The zod schemas module, once loaded. */
export type Schemas = typeof SchemaModule;

let loading: Promise<Schemas> | undefined;

/** zod's schemas, or the error that kept them from loading (asked again by the next doubt). */
export function loadSchemas(): Promise<Schemas | Error> {
  loading ??= import('../schemas/index.js');
  return loading.catch((error: unknown) => {
    loading = undefined;
    return error instanceof Error ? error : new Error(String(error));
  });
}

/** The issue that says a value could not be checked because zod did not load. */
export function unchecked(path: string, error: Error): ValidationIssue {
  const code = (error as { code?: unknown }).code;
  const why = typeof code === 'string' ? `${error.name} ${code}` : error.name;
  return { path, message: `could not be checked: the SDK's schemas file did not load (${why})` };
}

/** The parameters as zod parses them, or the ValidationError that words what is wrong. */
export function validate(
  name: string,
  schema: SchemaName,
  params: unknown,
  s: Schemas | Error,
  scrub: Scrubber,
): Record<string, unknown> {
  if (s instanceof Error) throw new ValidationError(name, [unchecked('', s)], 'Nothing was sent.');
  let checked: ReturnType<Schemas['check']>;
  try {
    checked = s.check(s[schema], params);
  } catch (error) {
    // A Proxy or getter that throws while being read: the parameters cannot be sent as JSON.
    const issue = { path: '', message: `could not be read (${(error as Error | null)?.name ?? 'error'})` };
    throw new ValidationError(name, [issue], 'Nothing was sent.');
  }
  if (!checked.ok) throw new ValidationError(name, scrub.issues(checked.issues), 'Nothing was sent.');
  return checked.value as Record<string, unknown>;
}

/**
 * One read of a call's parameters and options: a plain-data copy taken before anything is checked,
 * so the copy that is validated is the copy that is sent. A getter that answers differently on a
 * second read, a Proxy whose traps throw, or a revoked Proxy cannot slip a value past the checks or
 * surface as a raw `TypeError`: what cannot be read becomes a validation issue.
 */

// Deeper than the schemas allow (metadata: 32 levels), so their message is the one a merchant sees.
const MAX_DEPTH = 64;

/** A copy, or why one could not be made. */
export type Snapshot = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

function unreadable(path: string, error: unknown): ValidationIssue {
  let name = 'error';
  try {
    if (error instanceof Error) name = error.name;
  } catch {
    // A thrown Proxy: named generically.
  }
  return { path, message: `could not be read (reading it threw a ${name}); pass plain data` };
}

/**
 * A plain-data copy of `value`: plain objects and arrays copied, each property read once;
 * anything else (strings, numbers, class instances, functions) kept as it is for the schemas to
 * judge. Cycles keep their shape in the copy, for the schemas to refuse.
 */
export function snapshot(value: unknown, path = ''): Snapshot {
  const issues: ValidationIssue[] = [];
  const seen = new Map<object, unknown>();
  function copy(item: unknown, at: string, depth: number): unknown {
    if (typeof item !== 'object' || item === null) return item;
    if (seen.has(item)) return seen.get(item);
    if (depth > MAX_DEPTH) return item;
    try {
      if (Array.isArray(item)) {
        const out: unknown[] = [];
        seen.set(item, out);
        const length = item.length;
        for (let i = 0; i < length; i++) out.push(copy(item[i] as unknown, join(at, String(i)), depth + 1));
        return out;
      }
      // Asked first, so a Proxy whose getPrototypeOf trap throws (or a revoked one) is an issue.
      const proto = Object.getPrototypeOf(item) as unknown;
      if (!isPlainObject(item)) return item;
      const out = (proto === null ? Object.create(null) : {}) as Record<string, unknown>;
      seen.set(item, out);
      for (const key of Object.keys(item)) {
        try {
          const child = item[key];
          // A path is worded only for what may need one: an object, or what could not be read.
          const kept =
            typeof child === 'object' && child !== null ? copy(child, join(at, key), depth + 1) : child;
          // An own `__proto__` key (JSON.parse makes one) stays a key: assigned, it would become the
          // copy's prototype, and its fields would pass for the caller's own.
          if (key === '__proto__')
            Object.defineProperty(out, key, {
              value: kept,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          else out[key] = kept;
        } catch (error) {
          issues.push(unreadable(join(at, key), error));
        }
      }
      return out;
    } catch (error) {
      issues.push(unreadable(at, error));
      return undefined;
    }
  }
  const out = copy(value, path, 0);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: out };
}
