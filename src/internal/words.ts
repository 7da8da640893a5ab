/** Small pieces of messages in a merchant's words: amounts in Naira with the Kobo, references quoted. */

const MAX_SHOWN = 64;

/** A reference as a message shows it: quoted, and cut when absurdly long. */
export function quoted(reference: unknown): string {
  const text = String(reference);
  return JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
}

/** `₦4,500.00 (450000 Kobo)`: what a merchant reads and what the service counts. */
function nairaAndKobo(kobo: unknown): string {
  return typeof kobo === 'number' && Number.isSafeInteger(kobo)
    ? `${nairaText(kobo)} (${kobo} Kobo)`
    : String(kobo);
}

/** `₦4,500.00 (450000 Kobo) on "order_1042"`. */
export function amountOn(kobo: unknown, reference: unknown): string {
  return `${nairaAndKobo(kobo)} on ${quoted(reference)}`;
}

/** How to confirm a charge whose dispatch outcome is unknown. */
export function confirmWithVerify(params: Record<string, unknown>): string {
  return `charges.verify(${quoted(params.reference)})`;
}

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
