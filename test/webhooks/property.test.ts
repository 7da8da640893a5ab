import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { signWebhook, verifyWebhook, verifyWebhookAsync } from '../../src/webhooks.js';
import type { WebhookSignatureHeader } from '../../src/webhooks.js';
import { hmacHex, outcome } from './helpers.js';

const NUM_RUNS = 200;

const secretArb = fc.string({ minLength: 1, maxLength: 80, unit: 'binary' });
const chargeSuccessArb = fc.record({
  event: fc.constant('charge.success'),
  data: fc.record({
    reference: fc.string({ unit: 'binary' }),
    amount: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), // money paid is never negative
    customer: fc.record({ handle: fc.string() }),
  }),
});
const otherEventArb = fc.record({
  event: fc.string({ unit: 'binary' }).filter((s) => s !== 'charge.success'),
  data: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
});
const eventArb = fc.oneof(chargeSuccessArb, otherEventArb);

function reason(run: () => unknown): string {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return (error as { reason?: string }).reason ?? 'other';
  }
}

describe('properties', () => {
  test('sign then verify succeeds, sync and async, for random events and secrets', async () => {
    await fc.assert(
      fc.asyncProperty(eventArb, secretArb, async (payload, secret) => {
        const { body, signature } = signWebhook(payload, secret);
        expect(signature).toBe(hmacHex(body, secret));
        const expected: unknown = JSON.parse(JSON.stringify(payload));
        expect(verifyWebhook(body, signature, secret)).toEqual(expected);
        expect(await verifyWebhookAsync(Buffer.from(body), signature, secret)).toEqual(expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test('any one-byte change to the body fails with signature_mismatch', () => {
    fc.assert(
      fc.property(
        eventArb,
        secretArb,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (payload, secret, at, flip) => {
          const { body, signature } = signWebhook(payload, secret);
          const bytes = Buffer.from(body);
          const changed = Buffer.from(bytes);
          const index = at % bytes.length;
          changed[index] = (bytes[index] ?? 0) ^ flip;
          expect(reason(() => verifyWebhook(changed, signature, secret))).toBe('signature_mismatch');
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  test('any one-character change to the signature fails, except the same hex digit in the other case', () => {
    fc.assert(
      fc.property(
        eventArb,
        secretArb,
        fc.nat(),
        fc.integer({ min: 0x21, max: 0x7e }), // printable, so trimming cannot hide the change
        (payload, secret, at, code) => {
          const { body, signature } = signWebhook(payload, secret);
          const index = at % signature.length;
          const original = signature[index] ?? '';
          const replacement = String.fromCharCode(code);
          fc.pre(replacement !== original);
          const changed = signature.slice(0, index) + replacement + signature.slice(index + 1);
          const expected =
            replacement.toLowerCase() === original
              ? 'accepted'
              : /[0-9a-f]/i.test(replacement)
                ? 'signature_mismatch'
                : 'malformed_signature';
          expect(reason(() => verifyWebhook(body, changed, secret))).toBe(expected);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  test('the sync and async verifiers agree on arbitrary input', async () => {
    const bodyArb = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.uint8Array({ maxLength: 64 }),
      eventArb.map((e) => JSON.stringify(e)),
    );
    // Headers are built from the body's real signature, so a good share of the cases are accepted.
    type HeaderShape = (valid: string) => WebhookSignatureHeader;
    const headerArb: fc.Arbitrary<HeaderShape> = fc.oneof(
      fc.constant((valid: string) => valid),
      fc.constant((valid: string) => ` ${valid.toUpperCase()}\n`),
      fc.constant((valid: string) => [valid]),
      fc.constant((valid: string) => [valid, valid.slice(1)]),
      fc.constant((valid: string) => valid.slice(2)),
      fc.stringMatching(/^\s?[0-9a-fA-F]{126,130}\s?$/).map((s) => () => s),
      fc.string().map((s) => () => s),
      fc.constantFrom(undefined, null, [] as string[]).map((h) => () => h),
    );
    const secretsArb = fc.oneof(secretArb, fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }));
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        secretsArb,
        secretArb,
        fc.boolean(),
        headerArb,
        async (body, secrets, signingSecret, signWithListed, shape) => {
          const listed = typeof secrets === 'string' ? secrets : secrets[0];
          const header = shape(hmacHex(body, signWithListed && listed ? listed : signingSecret));
          const sync = await outcome(() => verifyWebhook(body, header, secrets));
          const async = await outcome(() => verifyWebhookAsync(body, header, secrets));
          expect(async).toEqual(sync);
          seen.add(sync.ok ? 'accepted' : sync.reason);
        },
      ),
      { numRuns: NUM_RUNS },
    );
    // The agreement means something only if both sides were driven through every outcome.
    expect([...seen].sort()).toEqual(
      [
        'accepted',
        'invalid_payload',
        'malformed_signature',
        'missing_secret',
        'missing_signature',
        'signature_mismatch',
      ].sort(),
    );
  });
});
