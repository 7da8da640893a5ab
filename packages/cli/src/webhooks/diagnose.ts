/**
 * Why a captured delivery does not verify. The signature covers the exact bytes the service sent;
 * in practice they are changed on the way to the check in a handful of ways. For each, this
 * rebuilds what the service may have signed from what was captured and checks it against every
 * secret given, so the one alteration that explains the mismatch is named.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A way the body is commonly changed between the service and the signature check. */
export interface Alteration {
  /** Short name, for `--json`. */
  readonly id: string;
  /** What happened to the body, and the fix, for people. */
  readonly explanation: string;
  /** What the service may have sent, given the bytes captured; undefined when it does not apply. */
  readonly original: (captured: Buffer) => Buffer | undefined;
}

function reparsed(captured: Buffer): unknown {
  try {
    return JSON.parse(captured.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** True when the captured bytes are the value's compact JSON (no indentation, no final newline). */
function isCompact(captured: Buffer, value: unknown): boolean {
  return captured.toString('utf8') === JSON.stringify(value);
}

const RAW_BODY_FIX =
  'Verify the raw bytes as received (express.raw(), await request.text()), before any parsing.';

/** The alterations tried, byte-level ones first (a trimmed newline is not a re-serialization). */
export const ALTERATIONS: readonly Alteration[] = [
  {
    id: 'final_newline_trimmed',
    explanation:
      'The final newline was trimmed (a framework, a logger or a copy-paste trims bodies). Keep the body byte for byte, final newline included.',
    original: (b) => Buffer.concat([b, Buffer.from('\n')]),
  },
  {
    id: 'final_newline_added',
    explanation:
      'A final newline was added (an editor or `echo` adds one). Capture the body without appending to it.',
    original: (b) => (b.at(-1) === 0x0a ? b.subarray(0, b.at(-2) === 0x0d ? -2 : -1) : undefined),
  },
  {
    id: 'crlf',
    explanation:
      'Line endings were changed to CRLF (a Windows checkout, git autocrlf, or a proxy). Keep the body as received; do not store it as text.',
    original: (b) =>
      b.includes('\r\n') ? Buffer.from(b.toString('latin1').replace(/\r\n/g, '\n'), 'latin1') : undefined,
  },
  {
    id: 'lf',
    explanation: 'CRLF line endings were changed to LF. Keep the body as received.',
    original: (b) =>
      b.includes('\n') ? Buffer.from(b.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1') : undefined,
  },
  {
    id: 're_encoded',
    explanation:
      'The body was re-encoded: UTF-8 bytes were read as Latin-1 and written back as UTF-8 (₦ became â‚¦). Read the body as bytes, or as UTF-8.',
    original: (b) => {
      const text = b.toString('utf8');
      // Only a body that is all Latin-1 characters can be turned back into the bytes it came from.
      const codes = [...text].map((c) => c.codePointAt(0) ?? 0);
      return codes.some((c) => c > 0x7f) && codes.every((c) => c <= 0xff)
        ? Buffer.from(text, 'latin1')
        : undefined;
    },
  },
  {
    id: 'reserialized_compact',
    explanation: `The body was parsed and re-serialized: the service sent it indented, the handler checked compact JSON. ${RAW_BODY_FIX}`,
    original: (b) => {
      const value = reparsed(b);
      // Only a compact capture was made compact; an indented one was re-indented (below).
      return value === undefined || !isCompact(b, value)
        ? undefined
        : Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    },
  },
  {
    id: 'reindented',
    explanation: `The body was parsed and re-serialized with another indentation than the service's (2 spaces, final newline). ${RAW_BODY_FIX}`,
    original: (b) => {
      const value = reparsed(b);
      return value === undefined || isCompact(b, value)
        ? undefined
        : Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    },
  },
  {
    id: 'reserialized_indented_no_newline',
    explanation: `The body was parsed and re-serialized (indented, final newline lost). ${RAW_BODY_FIX}`,
    original: (b) => {
      const value = reparsed(b);
      return value === undefined ? undefined : Buffer.from(JSON.stringify(value, null, 2));
    },
  },
  {
    id: 'reserialized_indented',
    explanation: `The body was parsed and re-serialized: the service sent compact JSON, the handler checked it indented. ${RAW_BODY_FIX}`,
    original: (b) => {
      const value = reparsed(b);
      return value === undefined || isCompact(b, value) ? undefined : Buffer.from(JSON.stringify(value));
    },
  },
];

/** The signature as hex bytes, after the usual header mistakes are undone, or undefined. */
export function signatureBytes(signature: string): { bytes: Buffer | undefined; note: string | undefined } {
  const first = signature.split(',')[0] ?? '';
  const cleaned = first.trim().replace(/^sha512=/i, '');
  const note =
    cleaned !== signature
      ? `The signature header was not exactly 128 hex digits (${signature.includes(',') ? 'it holds the header twice' : 'it had a prefix or spaces'}); the SDK's verifier refuses that form.`
      : undefined;
  if (/^[0-9a-f]{128}$/i.test(cleaned)) return { bytes: Buffer.from(cleaned, 'hex'), note };
  // Not a signature at all: no secret was tried, so nothing can be said of the secret or the body.
  return {
    bytes: undefined,
    note: `The signature is malformed: the service sends 128 hex digits (HMAC-SHA512), this is ${cleaned.length} character(s)${/[^0-9a-f]/i.test(cleaned) ? ' with some that are not hex' : ''}. Copy the X-Wallet-Signature header whole; no secret was tried.`,
  };
}

function matches(body: Buffer, secret: string, expected: Buffer): boolean {
  const mac = createHmac('sha512', secret).update(body).digest();
  return timingSafeEqual(mac, expected);
}

/** The finding: which secret and which alteration explain the signature, if any. */
export interface Diagnosis {
  readonly verifies: boolean;
  /** 0-based index of the secret that matched, when one did. */
  readonly secretIndex: number | undefined;
  readonly alteration: Alteration | undefined;
  readonly signatureNote: string | undefined;
}

/** Checks the captured body as is, then each alteration, against every secret in turn. */
export function diagnose(captured: Buffer, signature: string, secrets: readonly string[]): Diagnosis {
  const { bytes, note } = signatureBytes(signature);
  const none: Diagnosis = {
    verifies: false,
    secretIndex: undefined,
    alteration: undefined,
    signatureNote: note,
  };
  if (bytes === undefined) return none;
  const candidates: [Buffer, Alteration | undefined][] = [[captured, undefined]];
  for (const alteration of ALTERATIONS) {
    const original = alteration.original(captured);
    if (original !== undefined && !original.equals(captured)) candidates.push([original, alteration]);
  }
  for (const [body, alteration] of candidates) {
    for (const [secretIndex, secret] of secrets.entries()) {
      if (matches(body, secret, bytes)) {
        return {
          verifies: alteration === undefined && note === undefined,
          secretIndex,
          alteration,
          signatureNote: note,
        };
      }
    }
  }
  return none;
}
