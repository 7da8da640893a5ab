/**
 * The contract's wire rules, checked on what the server received: the key exactly as given, one of each header name, a well-formed key on every POST, and parameters
 * that passed validation (no lone surrogates, positive safe integer amounts, known channels).
 */
import type { Arrived } from './server.js';

const KEY = /^[\x21-\x7e]{1,255}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FIELDS: Record<string, readonly string[]> = {
  '/v1/charges/dispatch': ['reference', 'bankId', 'authChannel', 'description', 'metadata'],
  '/v1/charges/resolve-handle': ['handle', 'amount', 'reference'],
  '/v1/refunds': ['reference', 'amount', 'reason'],
};

function valueProblem(name: string, value: unknown): string | undefined {
  if (name === 'amount') return Number.isSafeInteger(value) && (value as number) > 0 ? undefined : 'amount';
  if (name === 'metadata')
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'metadata';
  if (name === 'authChannel')
    return value === 'wallet_push' || value === 'wallet_qr' ? undefined : 'authChannel';
  const optional = name === 'description' || name === 'reason';
  if (typeof value !== 'string' || (value === '' && !optional)) return `${name} ${JSON.stringify(value)}`;
  return LONE_SURROGATE.test(value) ? `${name} (lone surrogate)` : undefined;
}

/** Why this request breaks a wire rule, or undefined when it keeps them all. */
export function wireProblem(req: Arrived, key: string): string | undefined {
  const names = new Map<string, number>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const lower = req.rawHeaders[i]!.toLowerCase();
    names.set(lower, (names.get(lower) ?? 0) + 1);
  }
  const twice = [...names].find(([, n]) => n > 1);
  if (twice) return `${req.method} ${req.url}: header ${twice[0]} sent ${twice[1]} times`;
  if (req.headers.authorization !== `Bearer ${key}`) return `${req.url}: authorization changed`;
  if (req.method === 'GET') {
    if (req.headers['x-idempotency-key'] !== undefined) return `GET ${req.url} carries an idempotency key`;
    const segment = req.url.split('/v1/charges/verify/')[1];
    if (segment === undefined || segment === '' || segment.includes('/') || segment.includes('?'))
      return `GET ${req.url}: reference not one segment`;
    return undefined;
  }
  if (!KEY.test(String(req.headers['x-idempotency-key'] ?? '')))
    return `POST ${req.url}: idempotency key missing or malformed`;
  if (!String(req.headers['content-type']).startsWith('application/json'))
    return `POST ${req.url}: content-type`;
  const fields = FIELDS[req.url];
  if (!fields) return `POST ${req.url}: unknown endpoint`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(req.body) as Record<string, unknown>;
  } catch {
    return `POST ${req.url}: body is not JSON`;
  }
  for (const [name, value] of Object.entries(body)) {
    if (!fields.includes(name)) return `POST ${req.url}: unknown parameter ${name}`;
    const problem = valueProblem(name, value);
    if (problem) return `POST ${req.url}: invalid ${problem}`;
  }
  return undefined;
}
