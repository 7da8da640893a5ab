import type * as SchemaModule from '../schemas/index.js';
import type { SchemaName } from '../schemas/index.js';
import { ValidationError, type ValidationIssue } from '../errors/base.js';
import type { Scrubber } from './scrub.js';
import { describe, isPlainObject, isThenable } from '../internal/values.js';

// A call's parameters are read once into a plain copy (the copy checked is the copy sent), then
// judged by zod's schemas, loaded on the first call; a failed load is a ValidationError, nothing sent.

/** The zod schemas module, once loaded. */
export type Schemas = typeof SchemaModule;

let loaded: Schemas | undefined;
let loading: Promise<Schemas> | undefined;

/** zod's schemas, or a promise of them on a first call that rejects with `name`'s ValidationError. */
export function loadSchemas(name: string): Schemas | Promise<Schemas> {
  if (loaded !== undefined) return loaded;
  loading ??= import('../schemas/index.js').then(
    (schemas) => (loaded = schemas),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading.catch((error: unknown) => {
    const { name: kind = 'Error', code } = (error ?? {}) as { name?: string; code?: unknown };
    const why = typeof code === 'string' ? `${kind} ${code}` : kind;
    const issue = { path: '', message: `could not be checked: the SDK's schemas file did not load (${why})` };
    throw new ValidationError(name, [issue], 'Nothing was sent.');
  });
}

/** The parameters as zod parses them, or the ValidationError that words what is wrong. */
export function validate(
  name: string,
  schema: SchemaName,
  params: unknown,
  s: Schemas,
  scrub: Scrubber,
): Record<string, unknown> {
  // Read as an object, a Promise would be refused for lacking every field the caller did give.
  if (isThenable(params)) {
    const issue = { path: '', message: `must be an object, not ${describe(params)}` };
    throw new ValidationError(name, [issue], 'Nothing was sent.');
  }
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

/** A plain-data copy, each property read once (checks and wire see one value); other objects kept for zod. */
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
          // An own `__proto__` key (JSON.parse makes one) stays a key, never the copy's prototype.
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
