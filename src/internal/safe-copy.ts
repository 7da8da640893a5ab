/**
 * Plain-data copies of anything an error may carry, so that `console.error`, `util.inspect` at any
 * depth and `JSON.stringify` never throw on it and never pass an object through: strings go
 * through a text filter (the scrubber's), errors become plain `Error` copies (a `DOMException`
 * copied with its prototype throws from its own getters), arrays and plain objects are copied,
 * and everything else (a `Request`, `Headers`, a `Map`, a buffer, a class instance) becomes a
 * summary `{ type, summary }`. Bounded in depth and width; never throws. Also the one test for
 * "plain data" (`isPlainObject`), which the copies, the snapshots and the schemas share; and the
 * bounded copies of `toJSON` (`boundedCopy`): a hostile body (100 000 levels deep, a million keys,
 * a getter that throws) must not make `JSON.stringify(error)` throw or stall a logger.
 */

const MAX_DEPTH = 8;
const MAX_ENTRIES = 100;
const MAX_STRING = 4_096;
// SDK errors copy their own cause when built (errors/base.ts), so they are safe as they are.
const SDK_ERROR = Symbol.for('@wallet/node.error');

/** What an object that is not plain data becomes in a copy. */
export interface Summary {
  /** Its class, for example `Request`, `Headers`, `Map`, `Buffer`, or `Object` for an unreadable one. */
  type: string;
  /** What it is, without its contents: `POST https://…`, `3 headers: accept, authorization, …`, `12 bytes`. */
  summary: string;
}

type Text = (text: string) => string;
const same: Text = (t) => t;

function read(target: object, name: PropertyKey): unknown {
  try {
    return (target as Record<PropertyKey, unknown>)[name];
  } catch {
    return undefined;
  }
}

function typeOf(value: object): string {
  try {
    const ctor = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor;
    if (typeof ctor?.name === 'string' && ctor.name !== '') return ctor.name;
    return Object.prototype.toString.call(value).slice(8, -1);
  } catch {
    return 'Object';
  }
}

function isError(value: object): boolean {
  try {
    return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
  } catch {
    return false;
  }
}

function names(iterable: Iterable<unknown>, text: Text): string {
  const out: string[] = [];
  for (const key of iterable) {
    if (out.length === 10) return `${out.join(', ')}, …`;
    out.push(text(String(key)));
  }
  return out.join(', ');
}

// What a known kind of object is, in a few words; only names and sizes, never values.
function describe(value: object, type: string, text: Text): string {
  const url = read(value, 'url');
  const method = read(value, 'method');
  const status = read(value, 'status');
  if (typeof method === 'string' && typeof url === 'string') return text(`${method} ${url}`);
  if (typeof status === 'number' && typeof url === 'string') return text(`HTTP ${status} ${url}`);
  if (type === 'Headers') return `headers: ${names((value as Headers).keys(), text)}`;
  if (value instanceof Map) return `${value.size} entries`;
  if (value instanceof Set) return `${value.size} values`;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `${value.byteLength} bytes`;
  if (value instanceof URL) return text(value.href);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof RegExp) return text(String(value));
  return `an instance of ${type}`;
}

/** A summary of an object that is not plain data. Never throws. */
export function summarise(value: object, text: Text = same): Summary {
  const type = typeOf(value);
  try {
    return { type, summary: describe(value, type, text) };
  } catch {
    return { type, summary: `an instance of ${type}` };
  }
}

/**
 * A plain-data copy of `value`, strings passed through `text`. Without `text`, SDK errors are
 * kept as they are (their own cause was copied when they were built); with it, they are copied
 * like any error so that every string is filtered. Never throws.
 */
export function safeCopy(value: unknown, text?: Text): unknown {
  return copy(value, text ?? same, text === undefined, 0);
}

function copy(value: unknown, text: Text, keepSdk: boolean, depth: number): unknown {
  try {
    switch (typeof value) {
      case 'string':
        return text(value);
      case 'bigint':
        return `${value}n`;
      case 'symbol':
        return text(String(value));
      case 'function': {
        const name = read(value, 'name');
        return `[function ${typeof name === 'string' ? text(name) : ''}]`;
      }
      case 'object':
        break;
      default:
        return value;
    }
    if (value === null) return null;
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (keepSdk && (value as { [SDK_ERROR]?: unknown })[SDK_ERROR] !== undefined) return value;
    if (isError(value)) return copyError(value, text, keepSdk, depth);
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ENTRIES).map((item) => copy(item, text, keepSdk, depth + 1));
      if (value.length > MAX_ENTRIES) items.push(`… ${value.length - MAX_ENTRIES} more`);
      return items;
    }
    if (!isPlainObject(value)) return summarise(value, text);
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value);
    for (const key of keys.slice(0, MAX_ENTRIES))
      out[text(key)] = copy(read(value, key), text, keepSdk, depth + 1);
    if (keys.length > MAX_ENTRIES) out['…'] = `${keys.length - MAX_ENTRIES} more keys`;
    return out;
  } catch {
    return '[unreadable]';
  }
}

// A plain Error with the original's name, message, stack and own fields (code, cause, errors…),
// each copied: what inspect and JSON show, with no getter of the original's class left to throw.
function copyError(error: object, text: Text, keepSdk: boolean, depth: number): Error {
  const message = read(error, 'message');
  const out = new Error(typeof message === 'string' ? text(message) : '');
  const name = read(error, 'name');
  const own = (key: string, item: unknown, enumerable = false): void => {
    Object.defineProperty(out, key, { value: item, enumerable, writable: true, configurable: true });
  };
  if (typeof name === 'string') own('name', text(name));
  const stack = read(error, 'stack');
  own('stack', typeof stack === 'string' ? text(stack) : `${String(out.name)}: ${out.message}`);
  let keys: string[] = [];
  try {
    keys = Object.getOwnPropertyNames(error);
  } catch {
    // An object whose keys cannot be listed keeps only its name, message and stack.
  }
  for (const key of keys.slice(0, MAX_ENTRIES)) {
    if (key === 'message' || key === 'stack' || key === 'name') continue;
    let enumerable = false;
    try {
      enumerable = Object.getOwnPropertyDescriptor(error, key)?.enumerable ?? false;
    } catch {
      // Unreadable descriptor: kept, not enumerable.
    }
    own(text(key), copy(read(error, key), text, keepSdk, depth + 1), enumerable);
  }
  return out;
}

/** The one test for "plain data object": what JSON, option bags and metadata may be. */

/**
 * True for `{}` and objects made by `Object.create(null)`; false for arrays, dates, class
 * instances, `Map`, `Request`, buffers. Never throws: a revoked Proxy is not plain.
 * @internal
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const proto = Object.getPrototypeOf(value) as unknown;
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

/** A JSON-safe copy of `value`, cut at a fixed depth, width and string length. Never throws. */
export function boundedCopy(value: unknown, depth = 0): unknown {
  try {
    if (typeof value === 'string') {
      return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} chars)` : value;
    }
    if (typeof value === 'bigint') return `${value}n`;
    if (value === null || typeof value !== 'object') {
      return typeof value === 'function' || typeof value === 'symbol' ? String(value) : value;
    }
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ENTRIES).map((item) => boundedCopy(item, depth + 1));
      if (value.length > MAX_ENTRIES) items.push(`… ${value.length - MAX_ENTRIES} more`);
      return items;
    }
    const out: Record<string, unknown> = {};
    if (value instanceof Error) {
      out.name = value.name;
      out.message = boundedCopy(value.message, depth + 1);
      if (value.cause !== undefined) out.cause = boundedCopy(value.cause, depth + 1);
    }
    const keys = Object.keys(value);
    for (const key of keys.slice(0, MAX_ENTRIES)) {
      out[key] = boundedCopy((value as Record<string, unknown>)[key], depth + 1);
    }
    if (keys.length > MAX_ENTRIES) out['…'] = `${keys.length - MAX_ENTRIES} more keys`;
    return out;
  } catch {
    return '[unreadable]';
  }
}
