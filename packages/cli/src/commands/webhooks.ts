/**
 * `wallet webhooks trigger` sends a delivery signed exactly as the service (and the sandbox) signs
 * one: the sandbox's own body bytes (`webhookBody`), signed by the SDK's own `signWebhook`.
 * `wallet webhooks verify` says whether a captured delivery verifies with the SDK's own
 * `verifyWebhook`, and if not, what changed it on the way.
 */
import { readFile } from 'node:fs/promises';

import { signWebhook, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '@wallet/node/webhooks';
import { webhookBody } from '@wallet/node/workspace';

import { OK, type Output, PROBLEM, terminalText, UsageError } from '../output.js';
import { diagnose } from '../webhooks/diagnose.js';
import { applyOverride, readData } from '../webhooks/shape.js';

/** The flags of `wallet webhooks trigger`. */
export interface TriggerFlags {
  to: string;
  secret?: string;
  reference?: string;
  amount?: number;
  handle?: string;
  repeat: number;
  /** A JSON file holding the event's `data`. */
  data?: string;
  /** `path=value` changes to the data, in order. */
  override: string[];
}

/** The event's data: `--data FILE` or the flags' charge, then every `--override`. */
async function eventData(flags: TriggerFlags): Promise<Record<string, unknown>> {
  const given = ['reference', 'amount', 'handle'].filter((f) => flags[f as keyof TriggerFlags] !== undefined);
  if (flags.data !== undefined && given.length > 0)
    throw new UsageError(
      `--data gives the whole data: set ${given.map((f) => `--${f}`).join(', ')} with --override instead.`,
    );
  const base =
    flags.data === undefined
      ? {
          reference: flags.reference ?? `cli_${Date.now().toString(36)}`,
          amount: flags.amount ?? 500_000,
          customer: { handle: flags.handle ?? '@ada' },
        }
      : await readData(flags.data);
  return flags.override.reduce(applyOverride, base);
}

function secretOr(given: string | undefined): string {
  const secret = given ?? process.env.WALLET_WEBHOOK_SECRET;
  if (secret === undefined || secret === '')
    throw new UsageError('Give the webhook secret: --secret S, or WALLET_WEBHOOK_SECRET.');
  return secret;
}

/** Sends the delivery `repeat` times (a redelivery, byte for byte); exit 0 when each got `{"received":true}`. */
export async function triggerCommand(event: string, flags: TriggerFlags, out: Output): Promise<number> {
  if (event !== 'charge.success')
    throw new UsageError(`Unknown event '${event}': the service sends charge.success.`);
  let url: URL;
  try {
    url = new URL(flags.to);
  } catch {
    throw new UsageError(`--to must be a URL (got '${flags.to}').`);
  }
  // A webhook endpoint is HTTP: file:, data: or javascript: would be read, not delivered to.
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--to must be an http: or https: URL (got ${url.protocol}).`);
  const data = await eventData(flags);
  const reference =
    typeof data.reference === 'string' ? data.reference : JSON.stringify(data.reference ?? null);
  // The sandbox's own bytes (its webhookBody: indented, final newline), signed by the SDK's helper.
  const { body, signature } = signWebhook(webhookBody(event, data), secretOr(flags.secret));
  const results: { attempt: number; status: number | null; received: boolean; answer: string }[] = [];
  for (let attempt = 1; attempt <= flags.repeat; attempt++) {
    let status: number | null = null;
    let answer = '';
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      answer = (await response.text()).slice(0, 500);
    } catch (error) {
      answer = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    }
    let received = false;
    try {
      received = status === 200 && (JSON.parse(answer) as { received?: unknown }).received === true;
    } catch {
      received = false;
    }
    results.push({ attempt, status, received, answer });
    const { green, red } = out.colors;
    out.line(
      `${event} ${terminalText(reference)} -> ${terminalText(url.href)}: ${status ?? 'no answer'} ${received ? green('received') : red(`not acknowledged (${terminalText(answer) || 'empty body'})`)}`,
    );
  }
  out.data({ event, reference, body, signature, deliveries: results });
  return results.every((r) => r.received) ? OK : PROBLEM;
}

/** The flags of `wallet webhooks verify`. */
export interface VerifyFlags {
  secret: string[];
  signature: string;
}

const ORDINAL = ['1st', '2nd', '3rd'];

/** Verifies a captured body (a file, or stdin); on a mismatch, names the alteration that explains it. */
export async function webhookVerifyCommand(
  file: string | undefined,
  flags: VerifyFlags,
  out: Output,
): Promise<number> {
  const secrets = flags.secret.length > 0 ? flags.secret : [secretOr(undefined)];
  let captured: Buffer;
  try {
    captured = file === undefined || file === '-' ? await readStdin() : await readFile(file);
  } catch (error) {
    throw new UsageError(`Cannot read ${file ?? 'stdin'}: ${(error as Error).message}`);
  }
  let verified = false;
  try {
    verifyWebhook(captured, flags.signature, secrets[0]!);
    verified = true;
  } catch {
    verified = false;
  }
  const d = verified ? undefined : diagnose(captured, flags.signature, secrets);
  const otherSecret = d?.secretIndex !== undefined && d.secretIndex > 0;
  const cause = verified
    ? undefined
    : (d?.alteration?.explanation ??
      (otherSecret
        ? `It was signed with the ${ORDINAL[d.secretIndex] ?? `#${d.secretIndex + 1}`} --secret, not the first: the handler is set up with another secret (rotation, or test vs live).`
        : undefined) ??
      d?.signatureNote ??
      'The signature is well formed, but neither the body as captured nor any common alteration of it was signed with the --secret given: the secret is most likely wrong (another endpoint, test vs live, rotated), or the body was changed some other way.');
  const { green, red } = out.colors;
  out.data({
    verifies: verified,
    alteration: d?.alteration?.id ?? null,
    secretIndex: d?.secretIndex ?? (verified ? 0 : null),
    cause: cause ?? null,
  });
  if (verified) out.line(green('The delivery verifies with the first secret.'));
  else {
    out.line(red('The signature does not match this body.'));
    if (d?.alteration && otherSecret)
      out.line(`Signed with the ${ORDINAL[d.secretIndex] ?? ''} --secret, and:`);
    out.line(cause);
    if (d?.signatureNote && d.alteration) out.line(d.signatureNote);
  }
  return verified ? OK : PROBLEM;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
