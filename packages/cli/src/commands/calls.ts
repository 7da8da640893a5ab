/** `wallet charges verify|wait REF` and `wallet refunds create REF`: one SDK call each; a live-key refund asks first, or needs `--yes`. */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline/promises';

import { formatNaira, isWalletError, toKobo, type Transaction } from '@wallet/node';

import { createClient, isLiveKey, type ClientFlags } from '../client.js';
import {
  OK,
  PROBLEM,
  terminalMessage,
  terminalText,
  UsageError,
  withoutKeys,
  type Output,
} from '../output.js';

/**
 * The reference as given, refused when it holds a secret key (arguments swapped in a script, a key
 * pasted in the wrong place): sent, it would sit in the request's path or body, in the logs of every
 * proxy and server on the way, and come back in the error. The message never repeats it. An empty
 * one (`"$REF"` unset) is a usage error too: the SDK's refusal exits 1, which reads as not SUCCESS.
 */
function referenceArg(reference: string): string {
  if (reference.trim() === '')
    throw new UsageError('The reference is empty (a variable that is not set?): give the charge reference.');
  if (withoutKeys(reference) !== reference)
    throw new UsageError(
      'The reference holds a secret key (sk_…): give the charge reference, never the API key (WALLET_SECRET_KEY). Nothing was sent.',
    );
  return reference;
}

/** Prints the transaction (as JSON with `--json`); exit 0 when it is SUCCESS. */
function printTransaction(out: Output, tx: Transaction): number {
  out.data(tx);
  const { green, red, yellow } = out.colors;
  const paint = tx.status === 'SUCCESS' ? green : tx.status === 'FAILED' ? red : yellow;
  out.line(`${terminalText(tx.reference)}  ${paint(terminalText(tx.status))}  ${formatNaira(tx.amount)}`);
  if (tx.fee != null) out.line(`  fee ${formatNaira(tx.fee)}, net ${formatNaira(tx.netAmount ?? 0)}`);
  if (tx.paidAt != null) out.line(`  paid at ${terminalText(tx.paidAt)}`);
  return tx.status === 'SUCCESS' ? OK : PROBLEM;
}

/** `wallet charges verify REF`: exit 0 when the charge is SUCCESS, 1 otherwise. */
export async function verifyCommand(reference: string, flags: ClientFlags, out: Output): Promise<number> {
  referenceArg(reference);
  const wallet = createClient(flags);
  try {
    return printTransaction(out, await wallet.charges.verify(reference));
  } finally {
    await wallet.close();
  }
}

/** `wallet charges wait REF`: waits for the customer's answer; exit 0 on SUCCESS. */
export async function waitCommand(
  reference: string,
  flags: ClientFlags & { timeout?: number },
  out: Output,
): Promise<number> {
  referenceArg(reference);
  const wallet = createClient(flags);
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.once('SIGINT', onSigint);
  try {
    if (!out.json) out.note(`Waiting for ${terminalText(reference)}…`);
    const { signal } = abort;
    const options = flags.timeout === undefined ? { signal } : { signal, timeout: flags.timeout };
    return printTransaction(out, await wallet.charges.waitForOutcome(reference, options));
  } finally {
    process.off('SIGINT', onSigint);
    await wallet.close();
  }
}

/** Parses an amount flag: Kobo digits, or Naira with `--amount-unit naira`. */
function amountFlag(raw: string, unit: 'kobo' | 'naira'): number {
  if (unit === 'kobo') {
    if (!/^\d+$/.test(raw) || Number(raw) <= 0 || !Number.isSafeInteger(Number(raw)))
      throw new UsageError(
        `--amount must be a positive whole number of Kobo (got '${raw}'); for Naira add --amount-unit naira.`,
      );
    return Number(raw);
  }
  let kobo: number;
  try {
    kobo = toKobo(raw);
  } catch (error) {
    throw new UsageError(
      `--amount '${raw}' is not an exact Naira amount: ${isWalletError(error) ? error.message : String(error)}`,
    );
  }
  // Refused here, as in Kobo: before a live key's confirmation could ask about a negative refund.
  if (!(kobo > 0)) throw new UsageError(`--amount '${raw}' must be more than ₦0.00.`);
  return kobo;
}

async function confirmed(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    // Real money: only the word asked for confirms ("y", "Yes!" or a stray key do not).
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

/** `wallet refunds create REF`: a re-run after an unknown outcome must send the first run's `--idempotency-key`. */
export async function refundCommand(
  reference: string,
  flags: ClientFlags & {
    amount?: string;
    amountUnit: 'kobo' | 'naira';
    reason?: string;
    idempotencyKey?: string;
    yes: boolean;
  },
  out: Output,
): Promise<number> {
  referenceArg(reference);
  const amount = flags.amount === undefined ? undefined : amountFlag(flags.amount, flags.amountUnit);
  // A secret key pasted in the wrong flag would be sent as a header and printed back (and in --json)
  // as the key to run again with.
  if (flags.idempotencyKey !== undefined && withoutKeys(flags.idempotencyKey) !== flags.idempotencyKey)
    throw new UsageError(
      '--idempotency-key holds a secret key (sk_…): give the key a refund was sent with (the message of a run whose outcome is unknown names it), never the API key. Nothing was sent.',
    );
  // Escaped: a person confirms real money from this text, so it shows the reference as it is sent.
  const what = `${amount === undefined ? 'the whole remaining amount' : formatNaira(amount)} of ${terminalText(reference)}`;
  if (isLiveKey(flags) && !flags.yes) {
    // With --json a script reads stdout: it gets why nothing was refunded, as for every failure.
    const refused = (message: string): number => {
      out.note(message);
      out.data({ error: { name: 'NotConfirmed', code: 'not_confirmed', message } });
      return PROBLEM;
    };
    if (process.stdin.isTTY !== true || process.stderr.isTTY !== true)
      return refused(
        `Refusing to refund ${what} with a live key without confirmation: not on a terminal. Add --yes to confirm.`,
      );
    if (!(await confirmed(`Refund ${what} with a LIVE key (real money)? Type yes to confirm: `)))
      return refused('Not confirmed: nothing was sent.');
  }
  // Chosen here, not by the SDK, so a run cut off (Ctrl-C, SIGTERM) can name it: its outcome is unknown.
  const idempotencyKey = flags.idempotencyKey ?? randomUUID();
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.once('SIGINT', onSigint).once('SIGTERM', onSigint);
  const wallet = createClient(flags);
  try {
    const params: { reference: string; amount?: number; reason?: string } = { reference };
    if (amount !== undefined) params.amount = amount;
    if (flags.reason !== undefined) params.reason = flags.reason;
    const again = `Run the same command again with --idempotency-key ${idempotencyKey}: the service then answers with the first refund's result instead of refunding twice.`;
    const sent = await wallet.refunds
      .create(params, { idempotencyKey, signal: abort.signal })
      .withResponse()
      .catch((error: unknown) => {
        if (abort.signal.aborted) return undefined; // cut off by Ctrl-C
        // No attempt got an answer that says (lost connections, 5xx): it may have refunded. The
        // key in this command's flag, and in --json as a field, so a script retries with it.
        if (!isWalletError(error) || !error.outcomeUnknown) throw error;
        const { name, code, message } = error;
        out.data({ outcome: 'unknown', idempotencyKey, error: { name, code, message } });
        // A replay_mismatch: the key's saved answer is another request's, so a run with it again gets
        // that answer, not this refund's; the SDK's message says to check with the service first.
        out.note(
          code === 'replay_mismatch' ? terminalMessage(message) : `${terminalMessage(message)}\n${again}`,
        );
        return null;
      });
    if (sent === null) return PROBLEM;
    if (sent === undefined) {
      out.data({ interrupted: true, outcome: 'unknown', idempotencyKey });
      out.note(
        `Interrupted while refunding ${what}: the outcome is unknown (the service may have refunded). ${again}`,
      );
      return PROBLEM;
    }
    const { data: refund, response } = sent;
    // A replayed key gets the saved answer of the first run: nothing new was refunded now. Only the
    // sandbox says so (Idempotent-Replayed); the service's spec answers a replay as the first time,
    // so with the merchant's own key and no such header, whether this run refunded is unknown (null).
    const replayed =
      response.headers['idempotent-replayed'] === 'true'
        ? true
        : flags.idempotencyKey === undefined
          ? false
          : null;
    out.data({ ...refund, replayed });
    const done = `${formatNaira(refund.amount)} of ${terminalText(reference)}: ${terminalText(refund.status)} (${terminalText(refund.refundReference)})`;
    if (replayed === true)
      out.line(
        `Already refunded (a replay of the first request with this key; nothing new was sent): ${done}`,
      );
    else out.line(`Refunded ${done}`);
    if (replayed === null)
      out.note(
        `If an earlier run sent --idempotency-key ${terminalText(idempotencyKey)}, this is that run's refund, not a second one: the service answers a repeated key with its first result.`,
      );
    return OK;
  } finally {
    process.off('SIGINT', onSigint).off('SIGTERM', onSigint);
    await wallet.close();
  }
}
