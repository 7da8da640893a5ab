/**
 * The zod schemas (zod 4's `zod/mini` form: the same shapes at a third of the load time) that judge
 * every call's parameters and answer, loaded with the transport on a client's first call. Also the
 * shapes `@wallet/agent-toolkit` derives its tools' JSON Schemas from (`z.toJSONSchema`), so zod
 * stays the one place they are written.
 */
import { config, type ZodMiniType } from 'zod/mini';
import { en } from 'zod/locales';
import type { ValidationIssue } from '../errors/base.js';
import { closest } from '../internal/values.js';
import { resolveHandleParams, dispatchParams, verifyParams, refundParams } from './requests.js';
import { resolvedCustomer, chargeDispatch, transaction, refund } from './responses.js';

// zod/mini carries no messages of its own; the English ones word what a documented field broke.
config(en());

export { resolveHandleParams, dispatchParams, verifyParams, refundParams };
export { resolvedCustomer, chargeDispatch, transaction, refund };

/** A schema of this module by name: calls name theirs, so only this module imports zod. */
export type SchemaName =
  | 'resolveHandleParams'
  | 'dispatchParams'
  | 'verifyParams'
  | 'refundParams'
  | 'resolvedCustomer'
  | 'chargeDispatch'
  | 'transaction'
  | 'refund';

/** The outcome of {@link check}. */
export type Checked = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/**
 * Runs a schema and turns zod's issues into the SDK's, one per field, naming the likely intended
 * key when a parameter is misspelled.
 */
export function check(schema: ZodMiniType, value: unknown, prefix = ''): Checked {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const known = Object.keys((schema as { shape?: object }).shape ?? {});
  const issues: ValidationIssue[] = [];
  for (const issue of result.error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const guess = closest(key, known);
        issues.push({
          path: [path, key].filter(Boolean).join('.'),
          message: `is not a known parameter${guess ? ` (did you mean '${guess}'?)` : ''}`,
        });
      }
    } else {
      issues.push({ path, message: issue.message });
    }
  }
  return { ok: false, issues };
}
