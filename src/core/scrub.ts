import type { ValidationIssue } from '../errors/base.js';
import { safeCopy } from '../internal/values.js';
import type { AttemptResult } from './types.js';

// The one scrubber: every answer, header, message, cause and log line passes through it; each form of
// the key (also under two levels of JSON escapes and percent-encoding) becomes `[redacted]`.

const REDACTED = '[redacted]';

/** Removes the client's key from text, values, errors and attempt results. */
export interface Scrubber {
  text(text: string): string;
  /** A plain-data copy with every string scrubbed; objects that are not plain data are summarised. */
  value(value: unknown): unknown;
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

/** The scrubber of one key, and of secrets given whole (proxy credentials), as written or percent-encoded. */
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
    issues: (list) => list.map((i) => ({ path: text(i.path), message: text(i.message) })),
    result(result) {
      // The code too: a merchant's fetch may throw anything, and messages name it.
      if (result.kind === 'failure')
        return { ...result, code: result.code && text(result.code), cause: copy(result.cause) };
      // Copied only where the key was found: most answers hold none. Names too: a server may echo it there.
      let headers = result.headers;
      for (const [name, value] of Object.entries(result.headers)) {
        const [cleanName, clean] = [text(name), text(value)];
        if (cleanName === name && clean === value) continue;
        if (headers === result.headers) headers = { ...headers };
        delete headers[name];
        headers[cleanName] = clean;
      }
      if (result.kind === 'too_large') return headers === result.headers ? result : { ...result, headers };
      const clean = text(result.text);
      // What could not be decoded quotes the answer's Content-Encoding, which may echo the key.
      const undecoded = result.undecoded && text(result.undecoded);
      return headers === result.headers && clean === result.text && undecoded === result.undecoded
        ? result
        : { ...result, headers, text: clean, undecoded };
    },
  };
}

// A key's forms: as is, any 12 characters of its secret part in any case (a gateway may upper-case it),
// in hex, or in base64 (either alphabet, inside `Bearer` or Basic too). Linear: fixed blocks, then extended.

const FRAGMENT = 12;
const BLOCK = 6; // every fragment of 12 contains one block of 6 aligned on the key's part
// Base64: 12 bytes of the key are 16 characters; every run of 16 holds one aligned block of 8.
const B64_FRAGMENT = 16;
const B64_BLOCK = 8;
const BASE64_CHAR = /[A-Za-z0-9+/=_-]/;
// ASCII letters in lower case, every other character kept: the length, so the offsets, hold.
const fold = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** A range `[start, end)` of a text. */
type Range = [number, number];

interface Blocks {
  target: string;
  block: number;
  min: number;
  list: { text: string; offset: number }[];
}

function blocksOf(target: string, block: number, min: number): Blocks {
  const list: Blocks['list'] = [];
  for (let k = 0; k + block <= target.length; k += block)
    list.push({ text: target.slice(k, k + block), offset: k });
  return { target, block, min, list };
}

// Runs of `chars` that equal a piece of the target at least `min` long, each found from a block.
function runs(
  chars: string,
  b: Blocks,
  found: Range[],
  onRun: (start: number, end: number, from: number) => Range,
): void {
  const { target, block, min } = b;
  for (const { text, offset } of b.list) {
    let covered = -1;
    for (let q = chars.indexOf(text); q !== -1; q = chars.indexOf(text, q + 1)) {
      if (q + block <= covered) continue;
      let start = q;
      let pk = offset;
      while (start > 0 && pk > 0 && chars[start - 1] === target[pk - 1]) [start, pk] = [start - 1, pk - 1];
      let end = q + block;
      let ek = offset + block;
      while (end < chars.length && ek < target.length && chars[end] === target[ek])
        [end, ek] = [end + 1, ek + 1];
      if (end - start < min) continue;
      found.push(onRun(start, end, pk));
      covered = end;
    }
  }
}

// The base64 characters of `bytes`, starting `align` bytes into a 3-byte group, that no neighbour
// changes: whatever encodes the key holds those of one of the three alignments.
function stableBase64(bytes: Uint8Array, align: number): string {
  // A loop, not fromCharCode(...bytes): a key of 200 kB as arguments overflows the stack.
  let binary = '\0'.repeat(align);
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const text = btoa(binary);
  // Character c covers bits [6c, 6c + 6) of the stream: keep those entirely inside the key.
  return text.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6));
}

/** Finds a key's forms in text. */
interface KeyFinder {
  /** Quick test: false when the text cannot hold any form of the key. */
  mayHold(text: string): boolean;
  /** Every range of `chars` that is the key, a fragment of it, or a base64 word carrying it. */
  ranges(chars: string): Range[];
}

/** Builds the finder for one key (`sk_live_` or `sk_test_` and its secret part). */
function keyFinder(key: string): KeyFinder {
  const folded = fold(key);
  const prefix = folded.slice(0, 8);
  const part = key.slice(8);
  const fragments = part.length >= FRAGMENT;
  const plain = blocksOf(folded.slice(8), BLOCK, FRAGMENT);
  // Hex: a fragment of 12 characters is 24 hex digits, which hold one aligned block of 12.
  const hex = blocksOf(
    Array.from(new TextEncoder().encode(part), (b) => b.toString(16).padStart(2, '0')).join(''),
    2 * BLOCK,
    2 * FRAGMENT,
  );
  const bytes = new TextEncoder().encode(key);
  const encoded = [0, 1, 2].map((align) => blocksOf(stableBase64(bytes, align), B64_BLOCK, B64_FRAGMENT));

  // Fixed strings at least one of which every form of the key contains (URL-safe base64 included).
  const needles = fragments ? [...plain.list, ...hex.list].map((b) => b.text) : [folded];
  for (const e of encoded) {
    for (const { text } of e.list) needles.push(text, text.replace(/\+/g, '-').replace(/\//g, '_'));
  }

  function ranges(chars: string): Range[] {
    const found: Range[] = [];
    const lower = fold(chars);
    if (!fragments) {
      for (let q = lower.indexOf(folded); q !== -1; q = lower.indexOf(folded, q + key.length))
        found.push([q, q + key.length]);
    } else {
      runs(lower, plain, found, (start, end, pk) =>
        pk === 0 && lower.slice(start - prefix.length, start) === prefix
          ? [start - prefix.length, end]
          : [start, end],
      );
      runs(lower, hex, found, (start, end) => [start, end]);
    }
    // URL-safe base64 searched as standard: same length, so offsets hold.
    const standard =
      chars.includes('-') || chars.includes('_') ? chars.replace(/-/g, '+').replace(/_/g, '/') : chars;
    for (const b of encoded) {
      runs(standard, b, found, (start, end) => {
        // The whole encoded word goes: its other characters carry bits of the key too.
        while (start > 0 && BASE64_CHAR.test(chars[start - 1]!)) start--;
        while (end < chars.length && BASE64_CHAR.test(chars[end]!)) end++;
        return [start, end];
      });
    }
    return found;
  }

  // Every run ranges() finds holds a needle: one case-blind pass says whether to look at all.
  const escaped = needles.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const anyNeedle = new RegExp(escaped.join('|'), 'i');
  return {
    ranges,
    mayHold(text) {
      return part !== '' && anyNeedle.test(text);
    },
  };
}
