/**
 * The fast-check arbitraries of the property proofs: values that are usually valid for their field
 * and sometimes anything at all, strings with any UTF-16 code unit, extra keys (typos).
 */
import fc from 'fast-check';

/** A value that is usually valid for the field and sometimes anything at all. */
export const maybe = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: fc.anything() });
// Any UTF-16 code unit, lone surrogates and control characters included.
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
export const text = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: codeUnit, minLength: 1, maxLength: 12 }),
);
export const extraKeys = fc.dictionary(fc.string({ maxLength: 12 }), fc.anything(), { maxKeys: 2 });

export const params = {
  dispatch: fc.record(
    {
      reference: maybe(text),
      bankId: maybe(text),
      authChannel: maybe(fc.constantFrom('wallet_push', 'wallet_qr')),
      description: maybe(text),
      metadata: maybe(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }))),
    },
    { requiredKeys: [] },
  ),
  resolve: fc.record(
    { handle: maybe(text), amount: maybe(fc.integer({ min: -5, max: 2 ** 40 })), reference: maybe(text) },
    { requiredKeys: [] },
  ),
  refund: fc.record(
    { reference: maybe(text), amount: maybe(fc.integer({ min: -5, max: 2 ** 40 })), reason: maybe(text) },
    { requiredKeys: [] },
  ),
};

export const headerName = fc.oneof(
  fc.constantFrom(
    'accept',
    'Accept',
    'X-Tenant',
    'x-tenant',
    'user-agent',
    'Authorization',
    'expect',
    'x-idempotency-key',
  ),
  fc.string({ maxLength: 12 }),
);
export const requestOptions = fc.record(
  {
    idempotencyKey: maybe(fc.string({ minLength: 1, maxLength: 64 })),
    timeout: maybe(fc.integer({ min: 200, max: 5_000 })),
    maxRetries: maybe(fc.integer({ min: 0, max: 1 })),
    headers: maybe(
      fc.dictionary(
        headerName,
        fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 8 })),
        { maxKeys: 3 },
      ),
    ),
  },
  { requiredKeys: [] },
);
