import type { ValidationIssue } from '../errors/base.js';
import { describe } from '../internal/values.js';
import { platform } from '../platform/index.js';
import { checkOptions, ofType } from './options.js';

// The SDK sets these itself, or the HTTP layer manages them: a caller's value would defeat auth or
// idempotency, or be refused on the wire (undici refuses `expect`, `upgrade`, `keep-alive`...).
const RESERVED: ReadonlyMap<string, string> = new Map([
  ['authorization', 'set by the SDK from apiKey'],
  ['x-idempotency-key', 'use the idempotencyKey option'],
  ['content-type', 'set by the SDK'],
  ['content-length', 'set by the SDK'],
  ['host', 'set from baseUrl'],
  ['transfer-encoding', 'managed by the HTTP layer'],
  ['connection', 'managed by the HTTP layer'],
  ['keep-alive', 'managed by the HTTP layer'],
  ['upgrade', 'managed by the HTTP layer'],
  ['expect', 'not supported by the HTTP layer'],
  ['te', 'managed by the HTTP layer'],
  ['trailer', 'managed by the HTTP layer'],
]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What both undici and fetch send: tab, visible ASCII, space and Latin-1 (obs-text). Nothing else.
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Why a header value cannot be sent as it is, or undefined when it can. */
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
      return [
        {
          path: where,
          message: `must be an object of header names to string values, not ${describe(headers)}`,
        },
      ];
    }
    entries = Object.entries(headers);
  } catch {
    // A revoked Proxy, a throwing trap or getter: refused like any other wrong value.
    return [
      { path: where, message: 'could not be read; pass a plain object of header names to string values' },
    ];
  }
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const path = `${where}.${name}`;
    const lower = name.toLowerCase();
    const reserved = RESERVED.get(lower);
    let problem: string | undefined;
    if (reserved) problem = `cannot be set: ${reserved}`;
    else if (!TOKEN.test(name)) problem = 'is not a valid header name';
    else if (seen.has(lower))
      problem = 'is given twice in different cases; header names are case-insensitive';
    else if (typeof value !== 'string') problem = `must be a string, not ${describe(value)}`;
    else problem = headerValueProblem(value);
    seen.add(lower);
    if (problem) issues.push({ path, message: problem });
  }
  return issues;
}

/**
 * The one header-merge step: later layers replace earlier ones by name, case-insensitively, so
 * exactly one of each name goes on the wire, lowercase. Layers are already checked.
 */
export function mergeHeaders(
  ...layers: (Readonly<Record<string, string>> | undefined)[]
): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const name of Object.keys(layer)) out[name.toLowerCase()] = layer[name]!;
  }
  return out;
}

/** Identifies your integration in the `User-Agent`, so the service can help you when it goes wrong. */
export interface AppInfo {
  /** Your application's name, for example `ShopRite Checkout` or `Ìyá Àkàrà`; any Unicode is fine. */
  name: string;
  /**
   * Its version.
   * @default undefined
   */
  version?: string;
  /**
   * A URL about it.
   * @default undefined
   */
  url?: string;
}

const encoder = new TextEncoder();

// A header carries Latin-1 at most, and proxies mangle even that: anything outside visible ASCII
// is sent as UTF-8 percent-encoding, so a shop named in Yoruba is still identified, not refused.
function headerSafe(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 && code <= 0x7e && char !== '%') out += char;
    else
      for (const byte of encoder.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The `User-Agent`: the SDK and its version, the runtime, then the merchant's `appInfo`, encoded
 * so that it is always a valid header value. Line breaks are refused: they are a mistake, not a name.
 */
export function userAgentOf(version: string, app: unknown): { user: string; issues: ValidationIssue[] } {
  const base = `wallet-node/${version} ${headerSafe(platform.runtime)}`;
  if (app === undefined) return { user: base, issues: [] };
  const issues = checkOptions(
    app,
    { name: ofType('string'), version: ofType('string'), url: ofType('string') },
    'appInfo',
    'a field of appInfo',
  );
  const { name, version: appVersion, url } = (issues.length === 0 ? app : {}) as Partial<AppInfo>;
  if (issues.length === 0 && (typeof name !== 'string' || name.trim() === '')) {
    issues.push({ path: 'appInfo.name', message: 'must be a non-empty string' });
  }
  for (const [field, value] of [
    ['name', name],
    ['version', appVersion],
    ['url', url],
  ] as const) {
    if (value !== undefined && /[\r\n\0]/.test(value)) {
      issues.push({ path: `appInfo.${field}`, message: 'must not contain line breaks' });
    }
  }
  if (issues.length > 0 || name === undefined) return { user: base, issues };
  const text = `${headerSafe(name)}${appVersion ? `/${headerSafe(appVersion)}` : ''}${url ? ` (${headerSafe(url)})` : ''}`;
  return { user: `${base} ${text}`, issues };
}
