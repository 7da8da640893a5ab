import type { ValidationIssue } from '../errors.js';

// The SDK sets these itself; letting a caller override them would defeat auth or idempotency.
const RESERVED: ReadonlyMap<string, string> = new Map([
  ['authorization', 'set by the SDK from apiKey'],
  ['x-idempotency-key', 'use the idempotencyKey option'],
  ['content-type', 'set by the SDK'],
  ['content-length', 'set by the SDK'],
  ['host', 'set from baseUrl'],
  ['transfer-encoding', 'set by the SDK'],
]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Lists what is wrong with a caller's extra headers: names, values, and the SDK's own. */
export function checkHeaders(headers: unknown, where: string): ValidationIssue[] {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return [{ path: where, message: 'must be an object of header names to string values' }];
  }
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const path = `${where}.${name}`;
    const reserved = RESERVED.get(name.toLowerCase());
    if (reserved) issues.push({ path, message: `cannot be set: ${reserved}` });
    else if (!TOKEN.test(name)) issues.push({ path, message: 'is not a valid header name' });
    else if (typeof value !== 'string') issues.push({ path, message: 'must be a string' });
    else if (/[\r\n\0]/.test(value)) issues.push({ path, message: 'must not contain line breaks' });
  }
  return issues;
}
