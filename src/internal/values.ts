/** Values the SDK did not make, made safe to name in messages, encode into paths and copy into errors. */

/** Names a value for an error message without printing more of it than helps. */
export function describe(value: unknown): string {
  try {
    if (value === null || value === undefined) return String(value);
    if (Array.isArray(value)) return 'an array';
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string') {
      return `the string ${JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)}`;
    }
    if (typeof value === 'bigint') return `the bigint ${value}n`;
    if (typeof value === 'function') return 'a function';
    if (isThenable(value)) return 'a Promise (a missing await?)';
    if (typeof value === 'object') {
      const name = constructorName(value);
      return name && name !== 'Object' ? `an instance of ${name}` : 'an object';
    }
    return `a ${typeof value}`;
  } catch {
    return 'an unreadable value';
  }
}

/** The closest of `candidates` to a misspelled `name`: by edit distance, else by a shared start. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  if (best !== undefined) return best;
  let bestStem = Math.max(4, Math.ceil(name.length / 2)) - 1;
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    let n = 0;
    while (n < lower.length && lower[n] === other[n]) n++;
    if (n > bestStem) [best, bestStem] = [candidate, n];
  }
  return best;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** A reference as a message shows it: quoted, and cut when absurdly long. */
export function quoted(reference: unknown): string {
  const text = String(reference);
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}

/** `₦4,500.00 (450000 Kobo) on "order_1042"`: what a merchant reads and what the service counts. */
export function amountOn(kobo: unknown, reference: unknown): string {
  const amount =
    typeof kobo === 'number' && Number.isSafeInteger(kobo) ? `${nairaText(kobo)} (${kobo} Kobo)` : kobo;
  return `${String(amount)} on ${quoted(reference)}`;
}

// One formatter per locale seen; capped so that a hostile caller cannot grow the cache.
const formatters = new Map<string, Intl.NumberFormat>();

/** `₦1,234.56` for 123456 Kobo in `en-NG`; throws `RangeError` for a locale `Intl` does not know. */
export function nairaText(kobo: number, locale = 'en-NG'): string {
  let format = formatters.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'NGN' });
    if (formatters.size < 32) formatters.set(locale, format);
  }
  // As decimal text: `kobo / 100` is a double, a Kobo off past 2^46 Naira (MAX_SAFE_INTEGER ends in .90).
  const cents = Math.abs(kobo % 100);
  const naira = `${kobo < 0 ? '-' : ''}${(Math.abs(kobo) - cents) / 100}.${String(cents).padStart(2, '0')}`;
  return format.format(naira as `${number}`);
}

/** A route: its template (for tracing, never personal data) and the path built from parameters. */
export interface Route {
  /** For example `/v1/charges/verify/{reference}`. */
  readonly template: string;
  /** The path with each parameter percent-encoded as one segment. */
  build(params: Readonly<Record<string, unknown>>): string;
}

/** `` path`/v1/charges/verify/${'reference'}` ``: each value is one encoded segment (no other endpoint). */
export function path(strings: TemplateStringsArray, ...names: readonly string[]): Route {
  const fill = (values: readonly string[]): string => String.raw({ raw: strings }, ...values);
  return {
    template: fill(names.map((name) => `{${name}}`)),
    build: (params) => fill(names.map((name) => encodeURIComponent(String(params[name])))),
  };
}

const MAX_DEPTH = 8;
const MAX_ENTRIES = 100;
const MAX_STRING = 4_096;
// SDK errors copy their own cause when built, so they are safe as they are.
const SDK_ERROR = Symbol.for('@wallet/node.error');

type Text = (text: string) => string;
// How a copy treats strings, SDK errors, other errors and instances (see safeCopy and boundedCopy).
type Walk = { readonly text: Text; readonly keepSdk: boolean; readonly json: boolean };

// What `fn` returns, or `fallback` when a hostile getter or Proxy trap throws.
function attempt<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

const read = (target: object, name: PropertyKey): unknown =>
  attempt(() => (target as Record<PropertyKey, unknown>)[name], undefined);

function constructorName(value: object): string | undefined {
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor
    ?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

const typeOf = (value: object): string =>
  attempt(() => constructorName(value) ?? Object.prototype.toString.call(value).slice(8, -1), 'Object');

const isError = (value: object): boolean =>
  attempt(() => value instanceof Error || Object.prototype.toString.call(value) === '[object Error]', false);

// What an object that is not plain data is, in a few words: only names and sizes, never values.
function summaryOf(value: object, type: string, text: Text): string {
  const url = read(value, 'url');
  const method = read(value, 'method');
  const status = read(value, 'status');
  if (typeof method === 'string' && typeof url === 'string') return text(`${method} ${url}`);
  if (typeof status === 'number' && typeof url === 'string') return text(`HTTP ${status} ${url}`);
  if (type === 'Headers') {
    const names = [...(value as Headers).keys()];
    const shown = names.slice(0, 10).map((name) => text(name));
    return `headers: ${shown.join(', ')}${names.length > 10 ? ', …' : ''}`;
  }
  if (value instanceof Map) return `${value.size} entries`;
  if (value instanceof Set) return `${value.size} values`;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `${value.byteLength} bytes`;
  if (value instanceof URL) return text(value.href);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof RegExp) return text(String(value));
  return `an instance of ${type}`;
}

/** A bounded plain-data copy that never throws: strings through `text`, instances as `{ type, summary }`, SDK errors kept unless `text` is given. */
export function safeCopy(value: unknown, text?: Text): unknown {
  return copy(value, { text: text ?? ((t) => t), keepSdk: text === undefined, json: false }, 0);
}

/** A JSON-safe copy of `value` for `toJSON`, cut at a fixed depth, width and string length. Never throws. */
export function boundedCopy(value: unknown): unknown {
  const text: Text = (t) => (t.length > MAX_STRING ? `${t.slice(0, MAX_STRING)}… (${t.length} chars)` : t);
  return copy(value, { text, keepSdk: false, json: true }, 0);
}

function copy(value: unknown, walk: Walk, depth: number): unknown {
  try {
    switch (typeof value) {
      case 'string':
      case 'symbol':
        return walk.text(String(value));
      case 'bigint':
        return `${value}n`;
      case 'function': {
        if (walk.json) return walk.text(String(value));
        const name = read(value, 'name');
        return `[function ${typeof name === 'string' ? walk.text(name) : ''}]`;
      }
      case 'object':
        break;
      default:
        return value;
    }
    if (value === null) return null;
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (walk.keepSdk && (value as { [SDK_ERROR]?: unknown })[SDK_ERROR] !== undefined) return value;
    const out: Record<string, unknown> = {};
    if (isError(value)) {
      if (!walk.json) return copyError(value, walk, depth);
      // JSON shows no Error's own name, message and cause: a plain object that carries them.
      out.name = read(value, 'name');
      out.message = copy(read(value, 'message'), walk, depth + 1);
      const cause = read(value, 'cause');
      if (cause !== undefined) out.cause = copy(cause, walk, depth + 1);
    } else if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ENTRIES).map((item) => copy(item, walk, depth + 1));
      if (value.length > MAX_ENTRIES) items.push(`… ${value.length - MAX_ENTRIES} more`);
      return items;
    } else if (!walk.json && !isPlainObject(value)) {
      const type = typeOf(value);
      return { type, summary: attempt(() => summaryOf(value, type, walk.text), `an instance of ${type}`) };
    }
    const keys = Object.keys(value);
    for (const key of keys.slice(0, MAX_ENTRIES))
      out[walk.text(key)] = copy(read(value, key), walk, depth + 1);
    if (keys.length > MAX_ENTRIES) out['…'] = `${keys.length - MAX_ENTRIES} more keys`;
    return out;
  } catch {
    return '[unreadable]';
  }
}

// A plain Error copy, so that no getter of the original's class (a DOMException's) is left to throw.
function copyError(error: object, walk: Walk, depth: number): Error {
  const { text } = walk;
  const message = read(error, 'message');
  const out = new Error(typeof message === 'string' ? text(message) : '');
  const own = (key: string, item: unknown, enumerable = false): void => {
    Object.defineProperty(out, key, { value: item, enumerable, writable: true, configurable: true });
  };
  const name = read(error, 'name');
  if (typeof name === 'string') own('name', text(name));
  const stack = read(error, 'stack');
  own('stack', typeof stack === 'string' ? text(stack) : `${String(out.name)}: ${out.message}`);
  // Keys that cannot be listed: only the name, message and stack are kept.
  const keys = attempt(() => Object.getOwnPropertyNames(error), []);
  for (const key of keys.slice(0, MAX_ENTRIES)) {
    if (key === 'message' || key === 'stack' || key === 'name') continue;
    const enumerable = attempt(() => Object.getOwnPropertyDescriptor(error, key)?.enumerable ?? false, false);
    own(text(key), copy(read(error, key), walk, depth + 1), enumerable);
  }
  return out;
}

/** The one test for plain data: `{}` or `Object.create(null)`, never an array or instance; never throws. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = attempt(() => Object.getPrototypeOf(value) as unknown, undefined);
  return proto === Object.prototype || proto === null;
}

/** True for a value wrapped in quotes, as Docker's `--env-file` and systemd keep a `.env` value's. */
export function isQuoted(text: string): boolean {
  return /^(["'`])[^]*\1$/.test(text);
}

/** True for a Promise or other thenable: what a missing `await` passes where a value belongs; never throws. */
export function isThenable(value: unknown): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  return attempt(() => typeof (value as { then?: unknown }).then === 'function', false);
}

/** Calls a merchant's sink (a logger, an `onError`): its throw or its rejection (unhandled, that ends a Node process) is not the caller's. */
export function callQuietly(call: () => unknown): void {
  try {
    const result = call();
    if (isThenable(result)) Promise.resolve(result).catch(() => undefined);
  } catch {
    // A failing logger must not fail a call or turn an answer into a crash.
  }
}
