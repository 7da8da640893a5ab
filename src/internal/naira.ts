/**
 * Kobo written as Naira for people, with one cached `Intl.NumberFormat` per locale. No checks:
 * `money.ts` checks a merchant's input before calling it, and messages pass only whole Kobo.
 */

const KOBO_PER_NAIRA = 100;
// Locales seen so far; a few at most in practice, capped so a hostile caller cannot grow it.
const MAX_FORMATTERS = 32;
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * `₦1,234.56` for 123456 Kobo in `en-NG`. Throws `RangeError` for a locale `Intl` does not know.
 * @internal
 */
export function nairaText(kobo: number, locale = 'en-NG'): string {
  let format = formatters.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'NGN' });
    if (formatters.size < MAX_FORMATTERS) formatters.set(locale, format);
  }
  return format.format(kobo / KOBO_PER_NAIRA);
}
