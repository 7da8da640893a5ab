/**
 * An answer must be about what was asked: a verify answered with another reference (a cache or a
 * gateway mixing up answers, a service bug) is refused, never returned as this reference's charge.
 */
import { ResponseValidationError } from '../errors/validation.js';
import { quoted } from '../internal/words.js';
import type { WithResponse } from '../core/api-promise.js';
import type { Transaction } from '../types.js';

/** The endpoint as errors name it. */
const ENDPOINT = 'GET /v1/charges/verify/{reference}';

/**
 * The answer, when its transaction is about `reference`; else a `ResponseValidationError` with
 * code `reference_mismatch` (a GET: `outcomeUnknown` stays false, nothing was changed).
 * @internal
 */
export function sameReference(
  reference: string,
  answer: WithResponse<Transaction>,
  redact: (text: string) => string,
): WithResponse<Transaction> {
  const { data, response } = answer;
  // The SDK scrubs its key from answers, so a reference that holds the key comes back scrubbed.
  if (data.reference === reference || data.reference === redact(reference)) return answer;
  throw new ResponseValidationError(
    ENDPOINT,
    response.status,
    data,
    [
      {
        path: 'data.reference',
        message: redact(
          `the answer is about ${quoted(data.reference)}, not ${quoted(reference)}: refused, never read as this reference's charge`,
        ),
      },
    ],
    { attempts: response.attempts, outcomeUnknown: false },
    'reference_mismatch',
  );
}
