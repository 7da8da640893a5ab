/**
 * The one scrubber: every response text and header, error message, `cause` chain and log line
 * passes through it before a merchant can see it. It finds the secret key as is, JSON-escaped
 * (`\/`, `\u005f`), percent-encoded, and any fragment of 12 or more characters of the part after
 * `sk_live_`/`sk_test_`, in time linear in the text (a native search for fixed blocks of the key,
 * then a bounded extension), and replaces each with `[redacted]`.
 */
import type { ValidationIssue } from '../errors.js';
import type { AttemptResult } from './attempt.js';

const REDACTED = '[redacted]';
const FRAGMENT = 12;
const BLOCK = 6; // every fragment of 12 contains one block of 6 aligned on the key's part
const MAX_DEPTH = 8;

/** Removes the client's key from text, values, errors and attempt results. */
export interface Scrubber {
  text(text: string): string;
  /** A copy with every string scrubbed; depth-bounded, errors copied by {@link Scrubber.error}. */
  value(value: unknown): unknown;
  /** A copy of an error and its `cause` chain with every string scrubbed (same prototype, same code). */
  error(error: unknown): unknown;
  result(result: AttemptResult): AttemptResult;
  /** Validation issues with path and message scrubbed: a merchant may pass the key where it does not belong. */
  issues(issues: readonly ValidationIssue[]): ValidationIssue[];
}

interface View {
  chars: string;
  /** Source offset where each char of `chars` starts, plus one entry for the end. */
  at: Int32Array | undefined;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const HEX = /^[0-9a-fA-F]+$/;

// One level of JSON string escapes and percent-encoding undone, with a map back to the source.
function decoded(text: string): View {
  const chars: string[] = [];
  const at: number[] = [];
  let i = 0;
  while (i < text.length) {
    at.push(i);
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === 'u' && HEX.test(text.slice(i + 2, i + 6)) && i + 6 <= text.length) {
      chars.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)));
      i += 6;
    } else if (c === '\\' && i + 1 < text.length && SIMPLE_ESCAPES[text[i + 1]!] !== undefined) {
      chars.push(SIMPLE_ESCAPES[text[i + 1]!]!);
      i += 2;
    } else if (c === '%' && HEX.test(text.slice(i + 1, i + 3)) && i + 3 <= text.length) {
      chars.push(String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16)));
      i += 3;
    } else {
      chars.push(c);
      i += 1;
    }
  }
  at.push(text.length);
  return { chars: chars.join(''), at: Int32Array.from(at) };
}

/**
 * Builds the scrubber for one key, and for other secrets given whole (a proxy's credentials), which
 * are removed as written and percent-encoded.
 */
export function createScrubber(key: string, secrets: readonly string[] = []): Scrubber {
  const literals = [...new Set(secrets.flatMap((s) => (s.length >= 4 ? [s, encodeURIComponent(s)] : [])))];
  const prefix = key.slice(0, 8);
  const part = key.slice(8);
  const fragments = part.length >= FRAGMENT;
  const blocks: { text: string; offset: number }[] = [];
  if (fragments) {
    for (let k = 0; k + BLOCK <= part.length; k += BLOCK)
      blocks.push({ text: part.slice(k, k + BLOCK), offset: k });
  }

  // Ranges [start, end) of `chars` that are the key or a fragment of it.
  function matches(chars: string): [number, number][] {
    const found: [number, number][] = [];
    if (!fragments) {
      for (let q = chars.indexOf(key); q !== -1; q = chars.indexOf(key, q + key.length))
        found.push([q, q + key.length]);
      return found;
    }
    for (const block of blocks) {
      let covered = -1;
      for (let q = chars.indexOf(block.text); q !== -1; q = chars.indexOf(block.text, q + 1)) {
        if (q + BLOCK <= covered) continue;
        let start = q;
        let pk = block.offset;
        while (start > 0 && pk > 0 && chars[start - 1] === part[pk - 1]) [start, pk] = [start - 1, pk - 1];
        let end = q + BLOCK;
        let ek = block.offset + BLOCK;
        while (end < chars.length && ek < part.length && chars[end] === part[ek])
          [end, ek] = [end + 1, ek + 1];
        if (end - start < FRAGMENT) continue;
        if (pk === 0 && chars.slice(start - prefix.length, start) === prefix) start -= prefix.length;
        found.push([start, end]);
        covered = end;
      }
    }
    return found;
  }

  function needsWork(text: string): boolean {
    if (text.includes('\\') || text.includes('%')) return true;
    return fragments ? blocks.some((b) => text.includes(b.text)) : text.includes(key);
  }

  function text(value: string): string {
    for (const literal of literals) if (value.includes(literal)) value = value.split(literal).join(REDACTED);
    // No secret part (a missing or bare-prefix key) is nothing to hide, and an empty pattern would match everywhere.
    if (part === '' || !needsWork(value)) return value;
    const ranges = matches(value);
    // Up to two levels of escaping: JSON inside JSON, or a percent-encoded value in a JSON string.
    let view: View = { chars: value, at: undefined };
    for (let level = 0; level < 2 && (view.chars.includes('\\') || view.chars.includes('%')); level++) {
      const next = decoded(view.chars);
      const outer = view.at;
      view = { chars: next.chars, at: outer ? next.at!.map((i) => outer[i]!) : next.at };
      for (const [s, e] of matches(view.chars)) ranges.push([view.at![s]!, view.at![e]!]);
    }
    if (ranges.length === 0) return value;
    ranges.sort((a, b) => a[0] - b[0]);
    let out = '';
    let last = 0;
    for (const [s, e] of ranges) {
      if (e <= last) continue;
      out += value.slice(last, Math.max(s, last)) + (s >= last ? REDACTED : '');
      last = e;
    }
    return out + value.slice(last);
  }

  function copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (value instanceof Error) return copyError(value, depth);
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) out[text(k)] = copy((value as Record<string, unknown>)[k], depth + 1);
    return out;
  }

  function copyError(error: Error, depth: number): Error {
    const out = Object.create(Object.getPrototypeOf(error) as object) as Error;
    for (const name of Object.getOwnPropertyNames(error)) {
      const descriptor = Object.getOwnPropertyDescriptor(error, name)!;
      let item: unknown;
      try {
        item = 'value' in descriptor ? descriptor.value : descriptor.get?.call(error);
      } catch {
        item = undefined;
      }
      Object.defineProperty(out, name, {
        value: copy(item, depth + 1),
        enumerable: descriptor.enumerable ?? false,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  return {
    text,
    value: (value) => copy(value, 0),
    error: (error) => {
      try {
        return copy(error, 0);
      } catch {
        return new Error(text(String((error as Error | null)?.message ?? 'unreadable error')));
      }
    },
    issues: (list) => list.map((i) => ({ path: text(i.path), message: text(i.message) })),
    result(result) {
      if (result.kind === 'failure') return { ...result, cause: this.error(result.cause) };
      const headers: Record<string, string> = {};
      for (const name of Object.keys(result.headers)) headers[name] = text(result.headers[name]!);
      return result.kind === 'response'
        ? { ...result, headers, text: text(result.text) }
        : { ...result, headers };
    },
  };
}
