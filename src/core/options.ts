import { ValidationError, type ValidationIssue } from '../errors/base.js';
import { closest, describe, isQuoted, isThenable } from '../internal/values.js';
import { platform } from '../platform/index.js';
import type { AppInfo } from './config.js';

// Checking what a merchant gives: the one option checker, the key's shape, headers, per-call options.

/** Checks one option's value: a problem, a list of problems at sub-paths, or undefined when fine. */
export type OptionRule = (value: unknown, path: string) => string | ValidationIssue[] | undefined;

/** The largest signed 32-bit integer. */
export const MAX_INT32 = 2_147_483_647;
/** The longest delay a timer can hold, in ms (longer ones fire at once). */
export const MAX_TIMER_MS: number = MAX_INT32;

// An option whose getter threw: checkOptions reports it, so it is never taken for unset.
const UNREADABLE: unique symbol = Symbol('unreadable option');
function readOne(options: object, name: string): unknown {
  try {
    return (options as Record<string, unknown>)[name];
  } catch {
    return UNREADABLE;
  }
}

/** The one option checker: known names only (a typo gets "did you mean"), each value by its rule. */
export function checkOptions(
  value: unknown,
  rules: Readonly<Record<string, OptionRule>>,
  where: string,
  expected: string,
): ValidationIssue[] {
  if (value === undefined) return [];
  let given: string[];
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || isThenable(value)) {
      return [{ path: where, message: `must be an object, not ${describe(value)}` }];
    }
    given = Object.keys(value);
  } catch {
    return [{ path: where, message: 'could not be read (a Proxy that throws?); pass a plain object' }];
  }
  const issues: ValidationIssue[] = [];
  for (const name of given) {
    const path = where ? `${where}.${name}` : name;
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (!rule) {
      const guess = closest(name, Object.keys(rules));
      issues.push({ path, message: `is not ${expected}${guess ? ` (did you mean '${guess}'?)` : ''}` });
      continue;
    }
    const item = readOne(value, name);
    if (item === UNREADABLE) {
      issues.push({ path, message: 'could not be read (its getter threw)' });
      continue;
    }
    if (item === undefined) continue;
    const problem = rule(item, path);
    if (typeof problem === 'string') issues.push({ path, message: problem });
    else if (problem) issues.push(...problem);
  }
  return issues;
}

/**
 * Own and known options (a config class's getters too) read once, so what is checked is what runs;
 * own ones set to undefined stay, so an unknown one is reported. A non-object, an array or a Promise
 * comes back as it is, for checkOptions to refuse; options it cannot list (a Proxy that throws) are a
 * ValidationError.
 */
export function readOptions(options: unknown, rules: object, context: string, where = ''): unknown {
  // A Promise read as options has none: its caller's settings (an idempotency key) would be dropped.
  if (typeof options !== 'object' || options === null || isThenable(options)) return options;
  try {
    if (Array.isArray(options)) return options;
    const out: Record<string, unknown> = {};
    for (const name of new Set([...Object.keys(options), ...Object.keys(rules)])) {
      const value = readOne(options, name);
      // defineProperty: an own `__proto__` stays an option (refused as unknown), not the copy's prototype.
      if (value !== undefined || Object.hasOwn(options, name))
        Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  } catch {
    const message = 'could not be read (a Proxy that throws?); pass a plain object';
    throw new ValidationError(context, [{ path: where, message }]);
  }
}

/** A rule for an option that must be of one `typeof`. */
export const ofType =
  (type: 'string' | 'number' | 'boolean' | 'function' | 'object'): OptionRule =>
  (value) => {
    if (typeof value === type && value !== null) return undefined;
    // An async function called instead of passed is a Promise too: 'a missing await' alone would run it once, now.
    if (type === 'function' && isThenable(value)) {
      return 'must be a function, not a Promise: pass the function itself (not the result of calling it), or await the Promise that gives it';
    }
    return `must be a ${type}, not ${describe(value)}`;
  };

/** A rule for a whole number from `min` to `max`, inclusive. */
export const wholeNumber =
  (min: number, max: number): OptionRule =>
  (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? undefined
      : `must be a whole number from ${min} to ${max}, not ${describe(value)}`;

/** Throws every issue at once as one `ValidationError` for `context` (for example `createWebhookHandler options`). */
export function throwIssues(context: string, issues: readonly ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationError(context, issues);
}

/** Checks a timeout: a positive number of milliseconds that a timer can hold. */
export function timeoutProblem(value: unknown): string | undefined {
  return typeof value !== 'number' || !(value > 0) || value > MAX_TIMER_MS
    ? `must be a positive number of milliseconds up to ${MAX_TIMER_MS}`
    : undefined;
}

/** Checks a retry count: a whole number from 0 to 10. */
export const maxRetriesProblem: OptionRule = wholeNumber(0, 10);

const KEY_PREFIX = /^sk_(live|test)_/;
const MAX_KEY_LENGTH = 508; // the prefix and 500 characters
// Characters that paste invisibly: zero-width spaces and joiners, the BOM, soft hyphens, bidi marks.
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/;

/** What is wrong with a key (never repeating any of it); `name` is `apiKey` or `WALLET_SECRET_KEY`. */
export function keyProblem(key: unknown, name: string): string | undefined {
  if (typeof key !== 'string') return `must be a string, got ${key === null ? 'null' : typeof key}`;
  const at = (pattern: RegExp): number => key.search(pattern) + 1;
  if (INVISIBLE.test(key)) {
    return (
      `contains an invisible character (a zero-width space or similar) at character ${at(INVISIBLE)}: ` +
      `copy the key again from the dashboard and set ${name} with it`
    );
  }
  // After the invisible characters: JavaScript counts a BOM as whitespace.
  if (/^\s|\s$/.test(key))
    return 'has leading or trailing whitespace (check how it is loaded from your env file)';
  if (/\s/.test(key))
    return `contains whitespace at character ${at(/\s/)}: a key is one word, with no spaces or line breaks`;
  if (key.length > MAX_KEY_LENGTH) {
    return (
      `is ${key.length} characters long, longer than any key (at most ${MAX_KEY_LENGTH}): check that ` +
      `${name} holds only the key`
    );
  }
  if (/[^\x21-\x7e]/.test(key))
    return `contains a character that is not printable ASCII at character ${at(/[^\x21-\x7e]/)}`;
  // What an env file leaves when read by a loader that keeps quotes (Docker's --env-file, systemd).
  const quoted = (text: string): boolean => isQuoted(text) && KEY_PREFIX.test(text.slice(1));
  if (quoted(key))
    return `is wrapped in quotes: remove them where ${name} is set (Docker's --env-file and systemd keep them)`;
  // The line as a .env file holds it, its value quoted or not.
  const value = key.slice(key.indexOf('=') + 1);
  if (/^[A-Za-z_]\w*=/.test(key) && (KEY_PREFIX.test(value) || quoted(value)))
    return `holds a whole line of an env file (NAME=…): set ${name} to the key alone`;
  if (/^[pr]k_/.test(key))
    return 'looks like a public or restricted key; the SDK needs a secret key starting with sk_live_ or sk_test_';
  if (!KEY_PREFIX.test(key))
    return `must start with sk_live_ or sk_test_ (got ${key.length} characters that do not)`;
  if (key.replace(KEY_PREFIX, '') === '') return 'has nothing after its sk_live_ or sk_test_ prefix';
  return undefined;
}

// A caller's value would defeat auth or idempotency, or be refused on the wire.
const RESERVED: ReadonlyMap<string, string> = new Map([
  ['authorization', 'set by the SDK from apiKey'],
  ['x-idempotency-key', 'use the idempotencyKey option'],
  ['content-type', 'set by the SDK'],
  ['content-length', 'set by the SDK'],
  ['host', 'set from baseUrl'],
  ['expect', 'not supported by the HTTP layer'],
  ...['transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer'].map(
    (name) => [name, 'managed by the HTTP layer'] as [string, string],
  ),
]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What both undici and fetch send: tab, visible ASCII, space and Latin-1 (obs-text).
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

function headerValueProblem(value: string): string | undefined {
  if (value.length > 8_192) return 'is longer than 8192 characters';
  const bad = INVALID_VALUE_CHAR.exec(value);
  if (!bad) return undefined;
  const code = bad[0].codePointAt(0) ?? 0;
  return code > 0xff
    ? `contains '${bad[0]}' (U+${code.toString(16).toUpperCase().padStart(4, '0')}), which HTTP headers cannot carry; ASCII and Latin-1 only`
    : 'contains a control character or line break';
}

/** Lists what is wrong with a caller's extra headers: names, values, and the SDK's own. */
export function checkHeaders(headers: unknown, where: string): ValidationIssue[] {
  let entries: [string, unknown][];
  try {
    if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
      const message = `must be an object of header names to string values, not ${describe(headers)}`;
      return [{ path: where, message }];
    }
    // By tag (any realm): their entries are no own properties, so not one of them would be sent.
    if (/^\[object (Headers|Map)\]$/.test(Object.prototype.toString.call(headers))) {
      const message = `must be an object of header names to string values, not ${describe(headers)}: pass Object.fromEntries() of it`;
      return [{ path: where, message }];
    }
    entries = Object.entries(headers);
  } catch {
    const message = 'could not be read; pass a plain object of header names to string values';
    return [{ path: where, message }];
  }
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    const reserved = RESERVED.get(lower);
    const problem = reserved
      ? `cannot be set: ${reserved}`
      : !TOKEN.test(name)
        ? 'is not a valid header name'
        : seen.has(lower)
          ? 'is given twice in different cases; header names are case-insensitive'
          : typeof value !== 'string'
            ? `must be a string, not ${describe(value)}`
            : headerValueProblem(value);
    seen.add(lower);
    if (problem) issues.push({ path: `${where}.${name}`, message: problem });
  }
  return issues;
}

/** The one header merge: later layers replace earlier ones by name, any case; names go out lowercase. */
export function mergeHeaders(
  ...layers: (Readonly<Record<string, string>> | undefined)[]
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const layer of layers) {
    if (layer) for (const name of Object.keys(layer)) out[name.toLowerCase()] = layer[name]!;
  }
  return out;
}

/** The rules of `RequestOptions` (in config.ts). */
export const REQUEST_OPTION_RULES: Readonly<Record<string, OptionRule>> = {
  idempotencyKey: (v) =>
    typeof v === 'string' && /^[\x21-\x7e]{1,255}$/.test(v)
      ? undefined
      : 'must be 1 to 255 visible ASCII characters',
  timeout: timeoutProblem,
  totalTimeout: timeoutProblem,
  maxRetries: maxRetriesProblem,
  signal: (v) => {
    // All three are used: a listener not removable would throw mid-answer, inside undici.
    try {
      const signal = v as AbortSignal | null;
      return typeof signal?.addEventListener === 'function' &&
        typeof signal.removeEventListener === 'function' &&
        typeof signal.aborted === 'boolean'
        ? undefined
        : 'must be an AbortSignal';
    } catch {
      return 'must be an AbortSignal (reading it threw)';
    }
  },
  headers: checkHeaders,
};

const encoder = new TextEncoder();

// Beyond visible ASCII, UTF-8 percent-encoded: a shop named in Yoruba is identified, not refused.
const headerSafe = (text: string): string =>
  text.replace(/[^\x20-\x7e]|%/gu, (char) =>
    Array.from(encoder.encode(char), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(
      '',
    ),
  );

// An appInfo field: it goes into a header, so one line.
const oneLine: OptionRule = (value) =>
  typeof value !== 'string'
    ? `must be a string, not ${describe(value)}`
    : /[\r\n\0]/.test(value)
      ? 'must not contain line breaks'
      : undefined;
const APP_INFO_RULES = { name: oneLine, version: oneLine, url: oneLine };

/** The `User-Agent`: the SDK, the runtime, then the merchant's `appInfo`; line breaks are refused. */
export function userAgentOf(version: string, app: unknown, issues: ValidationIssue[]): string {
  const base = `wallet-node/${version} ${headerSafe(platform.runtime)}`;
  if (app === undefined) return base;
  const found = checkOptions(app, APP_INFO_RULES, 'appInfo', 'a field of appInfo');
  const { name, version: appVersion, url } = (found.length === 0 ? app : {}) as Partial<AppInfo>;
  if (found.length === 0 && (name === undefined || name.trim() === '')) {
    found.push({ path: 'appInfo.name', message: 'must be a non-empty string' });
  }
  issues.push(...found);
  if (found.length > 0 || name === undefined) return base;
  return `${base} ${headerSafe(name)}${appVersion ? `/${headerSafe(appVersion)}` : ''}${url ? ` (${headerSafe(url)})` : ''}`;
}
