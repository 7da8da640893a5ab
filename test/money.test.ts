import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateFee, formatNaira, toKobo, toNaira, ValidationError } from '@wallet/node';

describe('toKobo', () => {
  it.each([
    ['19.99', 1999],
    [19.99, 1999],
    [0.1, 10],
    [0.29, 29],
    [1.1, 110],
    ['5000', 500_000],
    ['₦1,250,000.50', 125_000_050],
    ['  ₦ 20.5 ', 2050],
    ['-₦5', -500],
    [0, 0],
  ])('converts %j to %i Kobo exactly', (naira, kobo) => {
    expect(toKobo(naira)).toBe(kobo);
  });

  it.each([1.005, '1.005', Number.NaN, Infinity, 'abc', '', '1,00', '12,3456', 2 ** 53, 1e21, '₦', null, {}])(
    'refuses %j instead of rounding',
    (value) => {
      expect(() => toKobo(value as never)).toThrow(ValidationError);
    },
  );

  // No grouping starts with 0: '0,500' is half a Naira in a decimal-comma export, never ₦500 (1000 times).
  it.each(['0,500', '00,500', '-0,500.00', '₦0,500'])(
    'refuses %j, a decimal comma, not a thousands group',
    (value) => {
      expect(() => toKobo(value)).toThrow(ValidationError);
    },
  );

  it('says why it refused', () => {
    expect(() => toKobo(1.005)).toThrow(/more than two decimals/);
  });

  it('refuses a number too large to hold its Kobo apart from the next, instead of returning the neighbour', () => {
    // 70368744177664.01 and .02 Naira are one double, which prints as .02: a Kobo the merchant never wrote.
    const naira = Number('70368744177664.01');
    expect(() => toKobo(naira)).toThrow(/pass the amount as a string/);
    expect(toKobo('70368744177664.01')).toBe(7_036_874_417_766_401);
    expect(toKobo(80_000_000_000_000)).toBe(8_000_000_000_000_000);
  });

  it('never gives another amount than the Naira it was given, however large: the Kobo or a refusal', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (kobo) => {
        let back: number | undefined;
        try {
          back = toKobo(toNaira(kobo));
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
        if (back !== undefined) expect(back).toBe(kobo);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('toNaira and formatNaira', () => {
  it('gives Naira as a number and as text for people', () => {
    expect(toNaira(1999)).toBe(19.99);
    expect(formatNaira(123456)).toBe('₦1,234.56');
    expect(formatNaira(5)).toBe('₦0.05');
    expect(formatNaira(-500)).toBe('-₦5.00');
  });

  it('writes every safe amount to the Kobo, however large', () => {
    expect(formatNaira(Number.MAX_SAFE_INTEGER)).toBe('₦90,071,992,547,409.91');
    expect(formatNaira(7_036_874_417_766_401)).toBe('₦70,368,744,177,664.01');
    expect(formatNaira(-Number.MAX_SAFE_INTEGER)).toBe('-₦90,071,992,547,409.91');
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (kobo) => {
        expect(Number(formatNaira(kobo).replace(/\D/g, ''))).toBe(Math.abs(kobo));
      }),
      { numRuns: 2_000 },
    );
  });

  it('takes a locale', () => {
    expect(formatNaira(123456, { locale: 'en-US' })).toMatch(/NGN\s?1,234\.56|₦1,234\.56/);
  });

  it('refuses Kobo that is not a whole number', () => {
    expect(() => formatNaira(1.5)).toThrow(ValidationError);
    expect(() => toNaira(Number.NaN)).toThrow(ValidationError);
  });

  it('round-trips every safe amount: toKobo(toNaira(k)) === k', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (kobo) => {
        const naira = toNaira(kobo);
        // Past 2^53 / 100 a double cannot hold every Kobo in Naira, so the number form is refused rather than guessed.
        if (Math.abs(kobo) > 2 ** 53 / 100) return;
        expect(toKobo(naira)).toBe(kobo);
      }),
      { numRuns: 2_000 },
    );
  });

  it('round-trips small, everyday amounts densely', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (kobo) => toKobo(toNaira(kobo)) === kobo),
      { numRuns: 5_000 },
    );
  });
});

describe('estimateFee', () => {
  it.each([
    [500_000, 10_000],
    [25, 1],
    [24, 0],
    [75, 2],
    [10_000_000, 200_000],
    [50_000_000, 200_000],
    [1, 0],
  ])('estimates 2%% of %i, rounded half up and capped: %i', (amount, fee) => {
    expect(estimateFee(amount)).toBe(fee);
  });

  it('refuses amounts that are not whole, positive Kobo', () => {
    expect(() => estimateFee(10.5)).toThrow(ValidationError);
    expect(() => estimateFee(-1)).toThrow(ValidationError);
  });
});
