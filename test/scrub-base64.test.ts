/**
 * The key in base64, as a server answering with the Basic form, a proxy logging the
 * Authorization header, or a library encoding credentials would echo it: alone, as
 * `Bearer <key>`, as Basic `user:key` or `key:`, at each of the three alignments a string
 * embedded in a longer encoded one can take, in either alphabet, escaped or not.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createScrubber } from '../src/core/scrub.js';
import { json, loopback } from './helpers/loopback.js';
import { TEST_KEY } from './helpers/mock-service.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');

const forms: [string, string][] = [
  ['base64 of the key', b64(TEST_KEY)],
  ['base64 of Bearer <key>', b64(`Bearer ${TEST_KEY}`)],
  ['base64 of a Basic user:key', b64(`merchant:${TEST_KEY}`)],
  ['base64 of a Basic key: (key as the user)', b64(`${TEST_KEY}:`)],
  ['base64 with the key one byte into a group', b64(`x${TEST_KEY}`)],
  ['base64 with the key two bytes into a group', b64(`xy${TEST_KEY}`)],
  ['URL-safe base64 of Bearer <key>', b64url(`Bearer ${TEST_KEY}`)],
  [
    'base64 in a JSON string with escaped slashes',
    JSON.stringify(b64(`Bearer ${TEST_KEY}`)).replaceAll('/', '\\/'),
  ],
  ['percent-encoded base64', encodeURIComponent(b64(`merchant:${TEST_KEY}`))],
];

// Any 16 characters of any form above would carry 12 bytes of the key.
function expectNone(text: string, form: string): void {
  const bare = decodeURIComponent(form.replaceAll('\\/', '/')).replace(/^"|"$/g, '');
  for (let i = 0; i + 16 <= bare.length; i += 4) expect(text).not.toContain(bare.slice(i + 4, i + 16));
}

describe('the scrubber on base64 forms of the key', () => {
  const scrub = createScrubber(TEST_KEY);

  it.each(forms)('removes %s, leaving the text around it', (_, form) => {
    const out = scrub.text(`Authorization: Basic ${form} (rejected)`);
    // The quotes of the JSON form stay: only the encoded word goes.
    expect(out).toMatch(/^Authorization: Basic "?\[redacted\]"? \(rejected\)$/);
  });

  it('leaves base64 that does not carry the key, and a different key, alone', () => {
    const other = b64('Bearer sk_test_Zz9yXw8vUt7sRq6pOn5mLk4j');
    expect(scrub.text(`token ${other}`)).toBe(`token ${other}`);
    expect(scrub.text(b64('hello, world: nothing secret in here'))).toBe(
      b64('hello, world: nothing secret in here'),
    );
  });

  let server: Awaited<ReturnType<typeof loopback>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each(forms)(
    'from an error a server echoes it in (%s): message, headers, body, inspect, JSON',
    async (_, form) => {
      server = await loopback((_req, res) =>
        json(
          res,
          401,
          { status: 'error', message: `Invalid credentials Basic ${form}` },
          { 'www-authenticate': form },
        ),
      );
      const error = await server
        .wallet({ maxRetries: 0 })
        .charges.verify('order_1042')
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'AuthenticationError' });
      const text = [
        (error as Error).message,
        inspect(error, { depth: Infinity }),
        JSON.stringify(error),
      ].join('\n');
      expect((error as Error).message).toContain('[redacted]');
      expectNone(text, form);
    },
  );
});

describe('a key far too long (a file pasted into WALLET_SECRET_KEY)', () => {
  it('builds its scrubber, so Wallet can refuse it with the reason (not a RangeError)', () => {
    // 200,000 bytes: spread into one call as arguments, they overflowed the stack.
    expect(() => createScrubber(`sk_test_${'a'.repeat(200_000)}`)).not.toThrow();
  });
});
