/**
 * Bounded copies for `toJSON`: a hostile body (100 000 levels deep, a million keys, a getter that
 * throws) must not make `JSON.stringify(error)` throw or stall a logger.
 */

const MAX_DEPTH = 8;
const MAX_ENTRIES = 100;
const MAX_STRING = 4_096;

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
