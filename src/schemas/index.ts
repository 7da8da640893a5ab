/**
 * The zod schemas, behind one dynamic import: zod loads on the first call, not at import time.
 */
import type { z } from 'zod';
import type { ValidationIssue } from '../errors.js';
import { closest } from '../internal/describe.js';

export { resolveHandleParams, dispatchParams, verifyParams, refundParams } from './requests.js';
export { resolvedCustomer, chargeDispatch, transaction, refund } from './responses.js';

/** The outcome of {@link check}. */
export type Checked = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/**
 * Runs a schema and turns zod's issues into the SDK's, one per field, naming the likely intended
 * key when a parameter is misspelled.
 */
export function check(schema: z.ZodType, value: unknown, prefix = ''): Checked {
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
