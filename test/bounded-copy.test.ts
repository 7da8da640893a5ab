/**
 * `toJSON` copies what an error carries within fixed limits (internal/safe-copy.ts, boundedCopy):
 * a service that answers with a huge text body must not make a log line huge.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/index.js';

describe("an error's JSON copy", () => {
  it('cuts a long body text at 4,096 characters and says how long it was', () => {
    const body = 'x'.repeat(10_000);
    const error = new ApiError({
      status: 502,
      message: 'Bad gateway',
      body,
      headers: {},
      idempotencyKey: undefined,
      endpoint: 'GET /v1/charges/verify/{reference}',
    });
    const copy = JSON.parse(JSON.stringify(error)) as { body: string };
    expect(copy.body).toBe(`${'x'.repeat(4_096)}… (10000 chars)`);
  });
});
