/**
 * The scrubber's quick test reads only some positions of a text, so a form of the key must be
 * found wherever it starts: after 0 to 20 characters of other text, with text after it or none,
 * as every 12-character fragment of the key, and in base64 at every alignment and either alphabet.
 */
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../src/core/scrub.js';
import { TEST_KEY } from './helpers/mock-service.js';

const part = TEST_KEY.slice('sk_test_'.length);
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');

const forms: string[] = [
  TEST_KEY,
  ...Array.from({ length: part.length - 11 }, (_, i) => part.slice(i, i + 12)),
  b64(TEST_KEY),
  b64(`x${TEST_KEY}`),
  b64(`xy${TEST_KEY}`),
  b64url(`Bearer ${TEST_KEY}`),
  b64url(`merchant:${TEST_KEY}`),
];

describe('the scrubber finds the key wherever it starts in a text', () => {
  const scrub = createScrubber(TEST_KEY);

  it.each(forms.map((form) => [form]))(
    '%s, after 0 to 20 characters, with or without text after it',
    (form) => {
      for (let shift = 0; shift <= 20; shift++) {
        const before = '. ,;'.repeat(6).slice(0, shift);
        for (const after of ['', ' .', ' , ; . , ; .']) {
          const out = scrub.text(`${before}${form}${after}`);
          expect(out, `shift ${shift}, ${after.length} after`).toBe(`${before}[redacted]${after}`);
        }
      }
    },
  );

  it('leaves a long text without the key as it is', () => {
    const text = JSON.stringify({ reference: 'order_1042', note: 'x'.repeat(5000), part: part.slice(0, 11) });
    expect(scrub.text(text)).toBe(text);
  });
});
