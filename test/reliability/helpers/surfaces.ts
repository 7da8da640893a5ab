/**
 * The surface collector: every place a merchant (or their log pipeline, or a bug report) can see
 * an error or a log line, and a check that the secret key appears on none of them in any form a
 * server or a library might echo: as is, JSON-escaped (PHP's `\/`, `\u005f`), percent-encoded,
 * base64 (alone or inside an encoded `Bearer <key>` or `user:key`, either alphabet), or a fragment
 * of 12+ characters of the part after the prefix.
 */
import { inspect } from 'node:util';
import type { LogSink } from '@wallet/node';

/** A key with the characters that escaping changes: `/`, `_`, `+`. */
export const SECRET_KEY = 'sk_test_Zq7/Hp_xW9k+Lm3/Tf8_Rb2Yc5Nd4Q';
const SECRET_PART = SECRET_KEY.slice('sk_test_'.length);
const FRAGMENT = 12;
const FRAGMENTS = Array.from({ length: SECRET_PART.length - FRAGMENT + 1 }, (_, i) =>
  SECRET_PART.slice(i, i + FRAGMENT),
);

export interface Surface {
  where: string;
  text: string;
}

// Undo the encodings a server or a serializer may have applied, layer by layer, so that one
// substring search covers every form (a PHP-escaped key inside a JSON.stringify'd error, too).
function decodings(text: string): string[] {
  const out = [text];
  let current = text;
  for (let layer = 0; layer < 3; layer++) {
    const next = current
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\(["\\/])/g, '$1');
    if (next === current) break;
    out.push(next);
    current = next;
  }
  return out;
}

// Base64 words decoded (standard or URL-safe): a key echoed in a Basic or Bearer credential.
const BASE64_WORD = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
function base64Decoded(text: string): string {
  const out: string[] = [];
  for (const [word] of text.matchAll(BASE64_WORD)) {
    out.push(Buffer.from(word.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'));
  }
  return out.join('\n');
}

/** The first form of the key found in `text`, or undefined when it is clean. */
export function keyFormIn(text: string): string | undefined {
  for (const form of decodings(text).flatMap((d) => [d, base64Decoded(d)])) {
    if (form.includes(SECRET_KEY)) return 'whole key';
    const fragment = FRAGMENTS.find((f) => form.includes(f));
    if (fragment !== undefined) return `fragment ${JSON.stringify(fragment)}`;
  }
  return undefined;
}

function show(value: unknown): string {
  try {
    return typeof value === 'string' ? value : inspect(value, { depth: 12, maxStringLength: null });
  } catch (error) {
    return `<inspect threw ${String(error)}>`;
  }
}

/** Every surface of an error: message, stack, inspect, JSON, each own property, the cause chain. */
export function errorSurfaces(error: unknown, label: string): Surface[] {
  const surfaces: Surface[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && !seen.has(current) && depth < 8; depth++) {
    seen.add(current);
    const at = depth === 0 ? label : `${label} cause#${depth}`;
    surfaces.push({ where: `${at} String()`, text: safeString(current) });
    surfaces.push({ where: `${at} inspect`, text: show(current) });
    surfaces.push({ where: `${at} JSON.stringify`, text: stringify(current) });
    if (typeof current === 'object') {
      const record = current as Record<string, unknown>;
      surfaces.push({ where: `${at} message`, text: show(record.message) });
      surfaces.push({ where: `${at} stack`, text: show(record.stack) });
      for (const name of Object.keys(record)) {
        surfaces.push({ where: `${at} .${name}`, text: show(record[name]) });
      }
      if (Array.isArray(record.errors)) {
        record.errors.forEach((inner, i) => surfaces.push(...errorSurfaces(inner, `${at} errors[${i}]`)));
      }
      current = record.cause;
    } else current = undefined;
  }
  return surfaces;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch (error) {
    return `<String() threw ${show(error)}>`;
  }
}

/** JSON.stringify must never throw on an SDK error: a throw is itself reported as a finding. */
export function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch (error) {
    return `<JSON.stringify threw ${(error as Error).name}>`;
  }
}

/** A logger sink that keeps every line, at every level, as the text a log pipeline would store. */
export function recordingLogger(): { sink: LogSink; lines: Surface[] } {
  const lines: Surface[] = [];
  const at =
    (level: string) =>
    (message: string, details?: Record<string, unknown>): void => {
      lines.push({ where: `log.${level}`, text: `${message} ${details === undefined ? '' : show(details)}` });
      if (details !== undefined) lines.push({ where: `log.${level} JSON`, text: stringify(details) });
    };
  return { sink: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

/** Counts surfaces checked and keeps every leak and every JSON.stringify that threw. */
export class SecretLedger {
  checked = 0;
  readonly leaks: string[] = [];
  readonly stringifyThrows: string[] = [];

  surfaces(list: readonly Surface[]): void {
    for (const surface of list) {
      this.checked++;
      const form = keyFormIn(surface.text);
      if (form) this.leaks.push(`${surface.where}: ${form}`);
      if (surface.text.startsWith('<JSON.stringify threw')) this.stringifyThrows.push(surface.where);
    }
  }

  error(error: unknown, label: string): void {
    this.surfaces(errorSurfaces(error, label));
  }
}
