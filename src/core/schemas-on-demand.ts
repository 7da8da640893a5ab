/**
 * zod, on demand: every call's parameters and every answer meet their generated guard first
 * (`../schemas/guards.ts`), and zod's schemas load once, by the first value a guard does not
 * accept, to judge it and word every issue. A client whose calls and answers all pass never loads
 * them.
 *
 * Loading can fail (a bundle that left the schemas file out, a process out of file handles). That
 * never escapes as a bare `Error`: before sending, the call ends in a `ValidationError` (nothing
 * sent); after an answer, in a `ResponseValidationError` that keeps the call's account, so a POST
 * whose answer could not be checked still says its outcome is unknown and names its key.
 */
import type * as SchemaModule from '../schemas/index.js';
import type { SchemaName } from '../schemas/guards.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import type { Scrubber } from './scrub.js';

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
