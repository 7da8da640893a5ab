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
