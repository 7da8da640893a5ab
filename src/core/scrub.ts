/**
 * The one scrubber: every response text and header, error message, `cause` chain and log line
 * passes through it before a merchant can see it. It finds the secret key in every form listed in
 * `scrub-find.ts` (as is, a fragment of 12 or more characters, base64 at any alignment), also
 * under JSON string escapes (`\/`, `\u005f`) and percent-encoding, up to two levels, and replaces
 * each with `[redacted]`. Values and errors are copied as plain data (`internal/safe-copy.ts`):
 * nothing a cause carries is passed through.
 */
import type { ValidationIssue } from '../errors.js';
import { safeCopy } from '../internal/safe-copy.js';
import type { AttemptResult } from './attempt.js';
import { keyFinder, type Range } from './scrub-find.js';

const REDACTED = '[redacted]';

/** Removes the client's key from text, values, errors and attempt results. */
export interface Scrubber {
  text(text: string): string;
  /** A plain-data copy with every string scrubbed; objects that are not plain data are summarised. */
  value(value: unknown): unknown;
  /** A plain `Error` copy of an error and its `cause` chain, every string scrubbed; inspects and serialises safely. */
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

function replaced(value: string, ranges: Range[]): string {
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

/**
 * Builds the scrubber for one key, and for other secrets given whole (a proxy's credentials), which
 * are removed as written and percent-encoded.
 */
export function createScrubber(key: string, secrets: readonly string[] = []): Scrubber {
  const literals = [...new Set(secrets.flatMap((s) => (s.length >= 4 ? [s, encodeURIComponent(s)] : [])))];
  const find = keyFinder(key);
  // No secret part (a missing or bare-prefix key) is nothing to hide, and an empty pattern would match everywhere.
  const secret = key.length > 8;

  function text(value: string): string {
    for (const literal of literals) if (value.includes(literal)) value = value.split(literal).join(REDACTED);
    if (!secret) return value;
    const escaped = value.includes('\\') || value.includes('%');
    if (!escaped && !find.mayHold(value)) return value;
    const ranges = find.ranges(value);
    // Up to two levels of escaping: JSON inside JSON, or a percent-encoded value in a JSON string.
    let view: View = { chars: value, at: undefined };
    for (let level = 0; level < 2 && (view.chars.includes('\\') || view.chars.includes('%')); level++) {
      const next = decoded(view.chars);
      const outer = view.at;
      view = { chars: next.chars, at: outer ? next.at!.map((i) => outer[i]!) : next.at };
      if (!find.mayHold(view.chars)) continue;
      for (const [s, e] of find.ranges(view.chars)) ranges.push([view.at![s]!, view.at![e]!]);
    }
    return ranges.length === 0 ? value : replaced(value, ranges);
  }

  const copy = (value: unknown): unknown => safeCopy(value, text);

  return {
    text,
    value: copy,
    error: copy,
    issues: (list) => list.map((i) => ({ path: text(i.path), message: text(i.message) })),
    result(result) {
      if (result.kind === 'failure') return { ...result, cause: copy(result.cause) };
      // Headers are scrubbed as they are read (by name, or all once when asked for).
      result.head.scrubWith(text);
      if (result.kind === 'too_large') return result;
      // Copied only when something is removed: an answer without the key is passed on as it is.
      const body = text(result.text);
      return body === result.text ? result : { ...result, text: body };
    },
  };
}
