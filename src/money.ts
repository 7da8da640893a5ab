/**
 * Money helpers. The service counts in Kobo, integer (100 Kobo = 1 Naira). Conversion from Naira
 * is done on the decimal digits, never by multiplying floats, so `19.99` is exactly `1999`.
 */
import { checkOptions, throwIssues, type OptionRule } from './core/options.js';
import { ValidationError } from './errors/base.js';
import { describe, nairaText } from './internal/values.js';

const FEE_CAP_KOBO = 200_000;
// Optional sign, digits with optional `,` grouping in threes (never after a 0: that is a decimal
// comma), and up to two decimals.
const NAIRA_PATTERN = /^(-?)([1-9]\d{0,2}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

function fail(fn: string, value: unknown, why: string): never {
  throw new ValidationError(`${fn}(${describe(value)})`, [{ path: '', message: why }]);
}

/**
 * Converts Naira to Kobo exactly, from a number or a string (which may use `,` grouping and a
 * leading `₦`). It never rounds: a silently rounded charge is a wrong charge.
 *
 * @throws {@link ValidationError} when the input is not an exact amount of Naira: more than two
 *   decimals, not a number, outside the safe integer range, or a number too large to hold its
 *   Kobo exactly (past 2^46 Naira; a string of the amount is exact).
 *
 * @example
 * ```ts
 * toKobo('19.99');      // 1999
 * toKobo(19.99);        // 1999
 * toKobo('₦1,250,000'); // 125000000
 * toKobo(1.005);        // throws ValidationError: more than two decimals
 * ```
 */
export function toKobo(naira: number | string): number {
  let text: string;
  if (typeof naira === 'number') {
    if (!Number.isFinite(naira)) fail('toKobo', naira, 'not a finite number');
    // The shortest round-trip decimal of a double: 19.99 prints as "19.99", so its digits are exact.
    text = String(naira);
    if (/e/i.test(text)) fail('toKobo', naira, 'outside the range of whole Kobo');
  } else if (typeof naira === 'string') {
    text = naira.trim().replace(/^(-?)\s*₦\s*/, '$1');
  } else {
    fail('toKobo', naira, 'expected a number or a string of Naira');
  }
  if (text.length > 32) fail('toKobo', naira, 'too long to be an amount of Naira');
  const match = NAIRA_PATTERN.exec(text);
  if (!match) {
    if (/^-?[\d,]*\.\d{3,}$/.test(text))
      fail('toKobo', naira, 'more than two decimals; Kobo is the smallest unit');
    fail('toKobo', naira, 'not an amount of Naira');
  }
  const [, sign = '', whole = '0', fraction = ''] = match;
  const kobo = BigInt(whole.replaceAll(',', '')) * 100n + BigInt(fraction.padEnd(2, '0'));
  const result = Number(sign === '-' ? -kobo : kobo);
  if (!Number.isSafeInteger(result)) fail('toKobo', naira, 'outside the safe integer range of Kobo');
  // Past 2^46 Naira one double holds two Kobo (70368744177664.01 and .02): its digits are a guess.
  if (typeof naira === 'number' && [result - 1, result + 1].some((k) => Number(`${k}e-2`) === naira))
    fail('toKobo', naira, 'too large for a number to hold whole Kobo exactly; pass the amount as a string');
  return Object.is(result, -0) ? 0 : result;
}

function assertKobo(kobo: number, fn: string): void {
  if (!Number.isSafeInteger(kobo)) fail(fn, kobo, 'expected a whole number of Kobo');
}

/**
 * Converts Kobo to a number of Naira.
 *
 * @example
 * ```ts
 * toNaira(1999); // 19.99
 * ```
 */
export function toNaira(kobo: number): number {
  assertKobo(kobo, 'toNaira');
  return kobo / 100;
}

/** Options of {@link formatNaira}. */
export interface FormatNairaOptions {
  /**
   * BCP 47 locale for grouping and symbol placement.
   * @default 'en-NG'
   */
  locale?: string;
}

const FORMAT_RULES: Readonly<Record<string, OptionRule>> = {
  locale: (v) =>
    typeof v === 'string' && v !== '' ? undefined : `must be a locale string, not ${describe(v)}`,
};

/**
 * Formats Kobo as Naira for people to read.
 *
 * @example
 * ```ts
 * formatNaira(123456); // '₦1,234.56'
 * ```
 */
export function formatNaira(kobo: number, options?: FormatNairaOptions): string {
  assertKobo(kobo, 'formatNaira');
  throwIssues(
    'formatNaira options',
    checkOptions(options, FORMAT_RULES, 'options', 'an option of formatNaira'),
  );
  const locale = options?.locale ?? 'en-NG';
  try {
    return nairaText(kobo, locale);
  } catch {
    throw new ValidationError('formatNaira options', [
      { path: 'options.locale', message: `${describe(locale)} is not a BCP 47 locale, such as 'en-NG'` },
    ]);
  }
}

/**
 * Estimates the gateway fee on an amount: 2%, rounded half up to a whole Kobo, capped at
 * ₦2,000 (200 000 Kobo). An estimate for display; the `fee` in the verify response is authoritative.
 *
 * @example
 * ```ts
 * estimateFee(500_000);    // 10000 (₦100 on ₦5,000)
 * estimateFee(50_000_000); // 200000 (the cap)
 * ```
 */
export function estimateFee(amount: number): number {
  assertKobo(amount, 'estimateFee');
  if (amount < 0) fail('estimateFee', amount, 'expected a positive amount');
  // Integer arithmetic: 2% is amount/50, and half up is floor((2 * amount + 50) / 100).
  return Math.min(Math.floor((amount * 2 + 50) / 100), FEE_CAP_KOBO);
}
