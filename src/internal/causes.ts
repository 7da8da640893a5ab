/**
 * The one walk along an error's cause chain. What a fetch function or a dispatcher throws is often
 * a wrapper (fetch's `TypeError` around undici's error, Node's `AggregateError` around the system
 * errors of each address), so what names the failure lies a few links down. The walk stops after
 * five links, and on a throwing getter or a revoked Proxy in what was thrown: a cause is the
 * caller's object, never trusted to be well behaved.
 */

/** How many links of a cause chain are read at the most. */
const MAX_LINKS = 5;

/**
 * The first value `read` returns (not undefined) for `cause` or one of its causes; undefined when
 * none answers, or when reading throws.
 * @internal
 */
export function firstAlongCauses<T>(cause: unknown, read: (link: object) => T | undefined): T | undefined {
  let current = cause;
  try {
    for (let depth = 0; depth < MAX_LINKS && typeof current === 'object' && current !== null; depth++) {
      const found = read(current);
      if (found !== undefined) return found;
      current = (current as { cause?: unknown }).cause;
    }
  } catch {
    // A throwing getter or a revoked Proxy: nothing more can be read.
  }
  return undefined;
}
