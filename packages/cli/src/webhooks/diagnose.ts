/** `wallet webhooks verify`: whether a captured delivery verifies, and if not, which alteration of the signed bytes explains it. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';

import { isWebhookVerificationError, verifyWebhook } from '@wallet/node/webhooks';
import { isQuoted } from '@wallet/node/workspace';

import { OK, PROBLEM, terminalMessage, UsageError, type Output } from '../output.js';

/** A common change to the body on its way to the check: its `--json` id, what happened and the fix, and what the service may have sent (undefined: does not apply). */
interface Alteration {
  readonly id: string;
  readonly explanation: string;
  readonly original: (captured: Buffer, json: unknown) => Buffer | undefined;
}

const RAW_BODY_FIX =
  'Verify the raw bytes as received (express.raw(), await request.text()), before any parsing.';
const isCompact = (b: Buffer, json: unknown): boolean => b.toString('utf8') === JSON.stringify(json);
const indented = (json: unknown): Buffer => Buffer.from(`${JSON.stringify(json, null, 2)}\n`);
const latin1 = (b: Buffer, from: RegExp, to: string): Buffer =>
  Buffer.from(b.toString('latin1').replace(from, to), 'latin1');

/** The alterations tried, byte-level ones first (a trimmed newline is not a re-serialization). */
const ALTERATIONS: readonly Alteration[] = [
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
    original: (b) => (b.includes('\r\n') ? latin1(b, /\r\n/g, '\n') : undefined),
  },
  {
    id: 'lf',
    explanation: 'CRLF line endings were changed to LF. Keep the body as received.',
    original: (b) => (b.includes('\n') ? latin1(b, /\r?\n/g, '\r\n') : undefined),
  },
  {
    id: 're_encoded',
    explanation:
      'The body was re-encoded: UTF-8 bytes were read as Latin-1 and written back as UTF-8 (₦ became â‚¦). Read the body as bytes, or as UTF-8.',
    original: (b) => {
      // Only a body that is all Latin-1 characters can be turned back into the bytes it came from.
      const codes = [...b.toString('utf8')].map((c) => c.codePointAt(0) ?? 0);
      return codes.some((c) => c > 0x7f) && codes.every((c) => c <= 0xff)
        ? Buffer.from(b.toString('utf8'), 'latin1')
        : undefined;
    },
  },
  {
    id: 'reserialized_compact',
    explanation: `The body was parsed and re-serialized: the service sent it indented, the handler checked compact JSON. ${RAW_BODY_FIX}`,
    original: (b, json) => (json !== undefined && isCompact(b, json) ? indented(json) : undefined),
  },
  {
    id: 'reindented',
    explanation: `The body was parsed and re-serialized with another indentation than the service's (2 spaces, final newline). ${RAW_BODY_FIX}`,
    original: (b, json) => (json !== undefined && !isCompact(b, json) ? indented(json) : undefined),
  },
  {
    id: 'reserialized_indented_no_newline',
    explanation: `The body was parsed and re-serialized (indented, final newline lost). ${RAW_BODY_FIX}`,
    original: (b, json) => (json === undefined ? undefined : Buffer.from(JSON.stringify(json, null, 2))),
  },
  {
    id: 'reserialized_indented',
    explanation: `The body was parsed and re-serialized: the service sent compact JSON, the handler checked it indented. ${RAW_BODY_FIX}`,
    original: (b, json) =>
      json !== undefined && !isCompact(b, json) ? Buffer.from(JSON.stringify(json)) : undefined,
  },
];

/** The signature as bytes, after the usual header mistakes are undone (undefined when malformed), and a note on them. */
function signatureBytes(signature: string): { bytes: Buffer | undefined; note: string | undefined } {
  const cleaned = (signature.split(',')[0] ?? '').trim().replace(/^sha512=/i, '');
  // One value sent twice (a header repeated: "SIG, SIG") is what the SDK's verifier takes.
  const repeated = signature.split(',').every((part) => part.replace(/^[ \t]+|[ \t]+$/g, '') === cleaned);
  const note =
    cleaned !== signature && !repeated
      ? `The signature header was not exactly 128 hex digits (${signature.includes(',') ? 'it holds the header twice' : 'it had a prefix or spaces'}); the SDK's verifier refuses that form.`
      : undefined;
  if (/^[0-9a-f]{128}$/i.test(cleaned)) return { bytes: Buffer.from(cleaned, 'hex'), note };
  // Not a signature at all: no secret was tried, so nothing can be said of the secret or the body.
  return {
    bytes: undefined,
    note: `The signature is malformed: the service sends 128 hex digits (HMAC-SHA512), this is ${cleaned.length} character(s)${/[^0-9a-f]/i.test(cleaned) ? ' with some that are not hex' : ''}. Copy the X-Wallet-Signature header whole; no secret was tried.`,
  };
}

/** Which secret (0-based) and which alteration explain the signature, if any, with the note on its form. */
function diagnose(
  captured: Buffer,
  signature: string,
  secrets: readonly string[],
): { secretIndex?: number; alteration?: Alteration | undefined; signatureNote: string | undefined } {
  const { bytes, note } = signatureBytes(signature);
  if (bytes === undefined) return { signatureNote: note };
  let json: unknown;
  try {
    json = JSON.parse(captured.toString('utf8'));
  } catch {
    json = undefined;
  }
  const candidates: [Buffer, Alteration | undefined][] = [[captured, undefined]];
  for (const alteration of ALTERATIONS) {
    const original = alteration.original(captured, json);
    if (original !== undefined && !original.equals(captured)) candidates.push([original, alteration]);
  }
  for (const [body, alteration] of candidates)
    for (const [secretIndex, secret] of secrets.entries())
      if (timingSafeEqual(createHmac('sha512', secret).update(body).digest(), bytes))
        return { secretIndex, alteration, signatureNote: note };
  return { signatureNote: note };
}

/** The webhook secret: the flag, else `WALLET_WEBHOOK_SECRET`. */
export function secretOr(given: string | undefined): string {
  const secret = given ?? process.env.WALLET_WEBHOOK_SECRET;
  if (secret === undefined || secret === '')
    throw new UsageError('Give the webhook secret: --secret S, or WALLET_WEBHOOK_SECRET.');
  return secret;
}

const ORDINAL = ['1st', '2nd', '3rd'];

// What an env or secrets file leaves around a secret: a line break, or quotes Docker's --env-file keeps.
const hasResidue = (secret: string): boolean => /^\s|\s$/.test(secret) || isQuoted(secret);
const withoutResidue = (secret: string): string => {
  const trimmed = secret.trim();
  return isQuoted(trimmed) ? trimmed.slice(1, -1).trim() : trimmed;
};

/** Why a secret with residue at its ends explains the mismatch, if one has it (the SDK's handlers refuse such a secret). */
function residueNote(captured: Buffer, signature: string, secrets: readonly string[]): string | undefined {
  const at = secrets.findIndex(hasResidue);
  if (at === -1) return undefined;
  const which = secrets.length > 1 ? `The ${ORDINAL[at] ?? `#${at + 1}`} --secret` : 'The --secret';
  const clean = diagnose(captured, signature, secrets.map(withoutResidue));
  const verifies = clean.secretIndex !== undefined && clean.alteration === undefined;
  return (
    `${which} has whitespace or quotes at its ends (a line break from a secrets file, or the quotes Docker's --env-file keeps)` +
    (verifies ? ', and the delivery verifies with it once they are removed' : '') +
    ': set WALLET_WEBHOOK_SECRET to the secret alone (the SDK refuses such a secret when a handler is created).'
  );
}

/** Verifies a captured body (a file, or stdin); on a mismatch, names the alteration that explains it. */
export async function webhookVerifyCommand(
  file: string | undefined,
  flags: { secret: string[]; signature: string },
  out: Output,
): Promise<number> {
  // An empty --secret is a variable that was not set: a usage error, as for trigger, not a verdict.
  const secrets = flags.secret.length > 0 ? flags.secret.map((s) => secretOr(s)) : [secretOr(undefined)];
  // The same secret twice tries nothing more: the second was meant to be another (the one before a
  // rotation, the other endpoint's), and a verdict on the first alone would be read as on both.
  const again = secrets.findIndex((s, i) => secrets.indexOf(s) !== i);
  if (again >= 0) {
    const nth = (i: number): string => ORDINAL[i] ?? `#${i + 1}`;
    throw new UsageError(
      `The ${nth(again)} --secret is the same as the ${nth(secrets.indexOf(secrets[again]!))}: give each secret to try once.`,
    );
  }
  const stdin = file === undefined || file === '-';
  const captured = await (stdin ? buffer(process.stdin) : readFile(file)).catch((error: Error) => {
    throw new UsageError(`Cannot read ${file ?? 'stdin'}: ${error.message}`);
  });
  let verified = true;
  let refused: unknown;
  try {
    verifyWebhook(captured, flags.signature, secrets[0]!);
  } catch (error) {
    verified = false;
    refused = error;
  }
  const { green, red } = out.colors;
  if (verified) {
    out.data({ verifies: true, alteration: null, secretIndex: 0, cause: null });
    out.line(green('The delivery verifies with the first secret.'));
    return OK;
  }
  // The signature matched: the secret and the bytes are right, only the payload's shape is refused.
  if (isWebhookVerificationError(refused) && refused.reason === 'invalid_payload') {
    out.data({ verifies: false, alteration: null, secretIndex: 0, cause: refused.message });
    out.line(red('The signature matches with the first secret, but the SDK refuses the payload.'));
    out.line(terminalMessage(refused.message));
    return PROBLEM;
  }
  const d = diagnose(captured, flags.signature, secrets);
  const nth = d.secretIndex ?? 0;
  const cause =
    d.alteration?.explanation ??
    (nth > 0
      ? `It was signed with the ${ORDINAL[nth] ?? `#${nth + 1}`} --secret, not the first: the handler is set up with another secret (rotation, or test vs live).`
      : undefined) ??
    d.signatureNote ??
    residueNote(captured, flags.signature, secrets) ??
    'The signature is well formed, but neither the body as captured nor any common alteration of it was signed with the --secret given: the secret is most likely wrong (another endpoint, test vs live, rotated), or the body was changed some other way.';
  out.data({
    verifies: false,
    alteration: d.alteration?.id ?? null,
    secretIndex: d.secretIndex ?? null,
    cause,
  });
  out.line(red('The signature does not match this body.'));
  if (d.alteration && nth > 0) out.line(`Signed with the ${ORDINAL[nth] ?? ''} --secret, and:`);
  out.line(cause);
  if (d.signatureNote && d.alteration) out.line(d.signatureNote);
  return PROBLEM;
}
