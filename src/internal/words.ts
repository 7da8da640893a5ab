/** Small pieces of messages in a merchant's words: amounts in Naira with the Kobo, references quoted. */
import { nairaText } from './naira.js';

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
