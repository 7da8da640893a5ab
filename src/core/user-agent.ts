import type { ValidationIssue } from '../errors.js';
import { platform } from '../platform/index.js';
import { checkOptions, ofType } from './options.js';

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
