// The checks of a delivery shared by both verifiers and the handlers, so they refuse alike. No `node:`
// module, no `Buffer` (edge runtimes) and no zod (this entry must stay light).
import { WalletError } from '../errors/base.js';
import { WebhookVerificationError } from '../errors/webhook.js';
import { describe, isPlainObject, isQuoted, isThenable } from '../internal/values.js';
import { platform } from '../platform/index.js';
import type { RawWebhookBody, WebhookEvent, WebhookSecret, WebhookSignatureHeader } from './types.js';

/** The header that carries the signature, lowercase as Node and Fetch `Headers` expose it. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-wallet-signature';

const SIGNATURE_FORM = /^[0-9a-fA-F]{128}$/;

const RAW_BODY_HELP =
  'Pass the raw request body (a string, Buffer or Uint8Array, exactly as received). In Express, mount ' +
  "express.raw({ type: 'application/json' }) on the webhook route before express.json(); in Fastify, " +
  "register scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => " +
  "done(null, body)) in the webhook route's plugin scope and pass request.body; in Next.js App Router, Hono, " +
  'Bun or Deno, pass await request.text(). A re-serialized object never matches the signature.';

/** The secrets to try, in order, or undefined when one is missing or empty. */
export function secretsOf(secret: unknown): readonly string[] | undefined {
  if (typeof secret === 'string') return secret.length > 0 ? [secret] : undefined;
  if (!Array.isArray(secret) || secret.length === 0) return undefined;
  // Entry by entry: a hole is a missing secret, and a huge sparse length ends at its first hole.
  const list: string[] = [];
  for (let i = 0; i < secret.length; i++) {
    const entry: unknown = secret[i];
    if (typeof entry !== 'string' || entry.length === 0) return undefined;
    list.push(entry);
  }
  return list;
}

/** The error for a missing or empty secret, naming the variable it usually comes from. */
export function missingSecretError(): WebhookVerificationError {
  return new WebhookVerificationError(
    'missing_secret',
    'The webhook secret is missing or empty (is WALLET_WEBHOOK_SECRET set?). Pass a non-empty string, ' +
      'or a non-empty array of non-empty strings during a rotation.',
  );
}

// An env file's line break at an end, or the quotes Docker's --env-file and systemd keep: no real secret has either.
const WHERE = 'WALLET_WEBHOOK_SECRET';
function loadingProblem(secret: string): string | undefined {
  if (/^\s|\s$/.test(secret)) {
    return (
      'has leading or trailing whitespace (a line break or space from an env or secrets file?): ' +
      `check how ${WHERE} is loaded, so it holds only the secret`
    );
  }
  if (isQuoted(secret)) {
    return `is wrapped in quotes (Docker's --env-file and systemd keep them): remove them where ${WHERE} is set`;
  }
  return undefined;
}

/** The error for a handler's secret as an env file left it, which would refuse every genuine delivery. */
export function paddedSecretError(secrets: readonly string[]): WebhookVerificationError | undefined {
  for (const [at, entry] of secrets.entries()) {
    const problem = loadingProblem(entry);
    if (problem === undefined) continue;
    const which = secrets.length === 1 ? 'The webhook secret' : `Entry ${at} of the webhook secrets`;
    return new WebhookVerificationError('missing_secret', `${which} ${problem}.`);
  }
  return undefined;
}

/** The secrets to try, in order. Refuses a missing or empty one: an empty HMAC key is forgeable. */
export function checkSecrets(secret: WebhookSecret | undefined): readonly string[] {
  // The browser build: a webhook secret there is readable by anyone.
  if (platform.refusal) throw new WalletError(platform.refusal, 'browser_refused');
  // An async secrets manager's value without its await: not missing, and not the variable's fault.
  if (isThenable(secret)) {
    throw new WebhookVerificationError(
      'missing_secret',
      'The webhook secret is a Promise (a missing await?): await it, and pass the string it gives.',
    );
  }
  const list = secretsOf(secret);
  if (list === undefined) throw notTextError(secret) ?? missingSecretError();
  return list;
}

// A secret given, not as text (a Buffer): "missing" would send the merchant to a set variable. To the first hole.
function notTextError(secret: unknown): WebhookVerificationError | undefined {
  const entries: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  let at = 0;
  while (at < entries.length && typeof entries[at] === 'string') at++;
  const entry = entries[at];
  if (entry === undefined || entry === null) return undefined;
  const which = Array.isArray(secret) ? `Entry ${at} of the webhook secrets` : 'The webhook secret';
  return new WebhookVerificationError('missing_secret', `${which} is ${notText(entry)}.`);
}

/** A secret given not as text, for a message: a number by its type only (its digits may be the secret), a Buffer with how to read it. */
export function notText(secret: unknown): string {
  const what =
    typeof secret === 'number' || typeof secret === 'bigint' ? `a ${typeof secret}` : describe(secret);
  const bytes = isByteArray(secret)
    ? ": read it with readFileSync(path, 'utf8'), or call .toString('utf8')"
    : '';
  return `${what}, not a string${bytes}`;
}

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 or throws: replacing bad bytes would change what the signature covers. BOM kept. */
export function decodeUtf8(bytes: Uint8Array): string {
  return strictUtf8.decode(bytes);
}

// By tag, not instanceof: a Buffer or ArrayBuffer from another realm (test runners) is still raw.
const tagOf = (value: unknown): string => Object.prototype.toString.call(value);

/** True for a `Buffer` or other `Uint8Array`, from any realm. */
export function isByteArray(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && tagOf(value) === '[object Uint8Array]';
}

/** The body's bytes, which is what the signature covers. */
export function bodyBytes(rawBody: RawWebhookBody): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(rawBody);
  if (isByteArray(rawBody)) {
    // Web Crypto refuses views of shared memory; a copy keeps the two verifiers in agreement.
    return tagOf(rawBody.buffer) === '[object ArrayBuffer]' ? rawBody : new Uint8Array(rawBody);
  }
  if (tagOf(rawBody) === '[object ArrayBuffer]') {
    try {
      return new Uint8Array(rawBody);
    } catch {
      // Detached (handed to a worker, structuredClone's transfer): its bytes are gone, and the view throws.
      throw new WebhookVerificationError(
        'raw_body_required',
        `The webhook body is a detached ArrayBuffer (transferred), which holds no bytes. ${RAW_BODY_HELP}`,
      );
    }
  }
  throw new WebhookVerificationError(
    'raw_body_required',
    `The webhook body is ${describe(rawBody)}, not the raw body. ${RAW_BODY_HELP}`,
  );
}

/** The error for a body that a JSON parser consumed before the webhook handler ran. */
export function parsedBodyError(where: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'raw_body_required',
    `${where} found the request body already parsed or read, so the exact bytes that were signed are gone. ${RAW_BODY_HELP}`,
  );
}

/** A string stripped of HTTP's optional whitespace (SP, HTAB) only: `trim()` would also take U+00A0 or U+FEFF. */
function normalize(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  // A loop, not /[ \t]+$/: that regex backtracks quadratically on a long run of whitespace.
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === 0x20 || value.charCodeAt(start) === 0x09)) start++;
  while (end > start && (value.charCodeAt(end - 1) === 0x20 || value.charCodeAt(end - 1) === 0x09)) end--;
  return value.slice(start, end);
}

/** The signature's 128 hex digits, checked for exact form before any comparison (never partly matched). */
export function signatureHex(given: WebhookSignatureHeader): string {
  // A header sent twice comes joined with commas (Node's req.headers, Headers.get), and so may one
  // line of a list (headersDistinct, when a proxy folded a repeat into one line); hex holds none.
  const split = (value: unknown): unknown[] => (typeof value === 'string' ? value.split(',') : [value]);
  const values = (Array.isArray(given) ? given.flatMap(split) : split(given)).map(normalize);
  if (new Set(values).size > 1) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `The ${WEBHOOK_SIGNATURE_HEADER} header came ${values.length} times with different values.`,
    );
  }
  const value = values[0];
  if (value === undefined || value === null || value === '') {
    // undefined is what a Node lookup with capitals gives on every delivery: Node lowercases names.
    const hint =
      given === undefined
        ? ` In Node, read it as req.headers['${WEBHOOK_SIGNATURE_HEADER}']: header names are lowercase there.`
        : '';
    throw new WebhookVerificationError(
      'missing_signature',
      `The ${WEBHOOK_SIGNATURE_HEADER} header is missing or empty.${hint}`,
    );
  }
  if (typeof value !== 'string' || !SIGNATURE_FORM.test(value)) {
    throw new WebhookVerificationError(
      'malformed_signature',
      `The ${WEBHOOK_SIGNATURE_HEADER} header is not 128 hex digits (HMAC-SHA512).`,
    );
  }
  return value;
}

/** The bytes of hex digits checked by {@link signatureHex}, without `Buffer` (edge runtimes). */
export function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
}

/** The error for a well-formed signature that no secret produced. */
export function mismatchError(secrets: readonly string[]): WebhookVerificationError {
  const problem = secrets.map(loadingProblem).find((found) => found !== undefined);
  return new WebhookVerificationError(
    'signature_mismatch',
    `The ${WEBHOOK_SIGNATURE_HEADER} signature does not match the body with ` +
      (secrets.length === 1 ? 'the secret' : `any of the ${secrets.length} secrets`) +
      '. Either the body was changed (re-serialized JSON never matches), the secret is wrong, or the ' +
      'delivery is forged.' +
      (problem ? ` A secret given ${problem}.` : ''),
  );
}

/** The JSON type of a value, for messages: never the value itself, which may carry personal data. */
function jsonType(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function invalid(detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_payload',
    `The webhook signature matched, but ${detail}. The delivery is genuine; its payload is not the documented shape.`,
  );
}

/** The problem with a `charge.success` data object, or undefined when it has the documented shape. */
function chargeSuccessProblem(data: Record<string, unknown>): string | undefined {
  const { reference, amount, customer } = data;
  if (typeof reference !== 'string') return `data.reference is ${jsonType(reference)}, not a string`;
  if (!Number.isSafeInteger(amount)) {
    const what = typeof amount === 'number' ? 'a number that is not a safe integer' : jsonType(amount);
    return `data.amount is ${what}, not a safe integer of Kobo`;
  }
  // As in the API's answers (schemas/index.ts): money paid is never negative.
  if ((amount as number) < 0) return 'data.amount is negative, not an amount paid in Kobo';
  if (!isPlainObject(customer)) return `data.customer is ${jsonType(customer)}, not an object`;
  const handle = customer['handle'];
  if (typeof handle !== 'string') return `data.customer.handle is ${jsonType(handle)}, not a string`;
  return undefined;
}

/** A signed body read: the event, or the body as far as it could be read and what did not fit. */
export type ReadEvent =
  { ok: true; event: WebhookEvent } | { ok: false; payload: unknown; error: WebhookVerificationError };

/** Reads a signed body; on failure `payload` is all there is (the JSON, else the text, else the bytes). */
export function readEvent(body: Uint8Array): ReadEvent {
  let text: string;
  try {
    text = decodeUtf8(body);
  } catch {
    return { ok: false, payload: body, error: invalid('the body is not UTF-8') };
  }
  if (text.charCodeAt(0) === 0xfeff) {
    const error = invalid('the body starts with a byte order mark (U+FEFF), which JSON does not allow');
    return { ok: false, payload: text, error };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, payload: text, error: invalid('the body is not JSON') };
  }
  const fail = (detail: string): ReadEvent => ({ ok: false, payload: parsed, error: invalid(detail) });
  if (!isPlainObject(parsed)) return fail(`the body is ${jsonType(parsed)}, not a JSON object`);
  if (typeof parsed['event'] !== 'string')
    return fail(`"event" is ${jsonType(parsed['event'])}, not a string`);
  const data = parsed['data'];
  if (!isPlainObject(data)) return fail(`"data" is ${jsonType(data)}, not an object`);
  if (parsed['event'] === 'charge.success') {
    const problem = chargeSuccessProblem(data);
    if (problem !== undefined) return fail(`in this charge.success event ${problem}`);
  }
  return { ok: true, event: parsed as unknown as WebhookEvent };
}

/** Parses and checks a body whose signature matched, throwing `invalid_payload` when it does not fit. */
export function parseEvent(body: Uint8Array): WebhookEvent {
  const read = readEvent(body);
  if (!read.ok) throw read.error;
  return read.event;
}
