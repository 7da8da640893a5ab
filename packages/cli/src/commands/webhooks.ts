/** `wallet webhooks trigger`: a delivery signed as the service signs one, from the flags or `--data`, with each `--override`. */
import { readFile } from 'node:fs/promises';

import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '@wallet/node/webhooks';
import { webhookBody } from '@wallet/node/workspace';

import { OK, type Output, PROBLEM, terminalText, UsageError } from '../output.js';
import { secretOr } from '../webhooks/diagnose.js';

export interface TriggerFlags {
  to: string;
  secret?: string;
  reference?: string;
  amount?: number;
  handle?: string;
  repeat: number;
  data?: string;
  override: string[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Path parts that would reach an object's prototype instead of its own fields. */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

async function readData(file: string): Promise<Json> {
  const text = await readFile(file, 'utf8').catch((error: Error) => {
    throw new UsageError(`--data ${file}: ${error.message}`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--data ${file} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value))
    throw new UsageError(`--data ${file} must hold a JSON object: the event's data ({"reference": …}).`);
  return value;
}

/** The text as JSON when it is, else as itself. */
function valueOf(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Sets one `path=value` in `data` (the run's own object) and returns it. */
function applyOverride(data: Json, override: string): Json {
  const eq = override.indexOf('=');
  const path = eq < 0 ? [] : override.slice(0, eq).split('.');
  if (eq <= 0 || path.some((p) => p === ''))
    throw new UsageError(
      `--override '${override}' is not path=value (for example amount=250000 or customer.handle=@bola).`,
    );
  const bad = path.find((p) => FORBIDDEN.has(p));
  if (bad !== undefined) throw new UsageError(`--override '${override}': '${bad}' cannot be a field name.`);
  let at = data;
  for (const part of path.slice(0, -1)) {
    const next = Object.hasOwn(at, part) ? at[part] : undefined;
    if (next !== undefined && !isObject(next))
      throw new UsageError(`--override '${override}': '${part}' is not an object in the data.`);
    if (next === undefined) at[part] = {};
    at = at[part] as Json;
  }
  at[path.at(-1)!] = valueOf(override.slice(eq + 1));
  return data;
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

/** Sends the delivery `repeat` times (a redelivery, byte for byte); exit 0 when each got `{"received":true}`. */
export async function triggerCommand(event: string, flags: TriggerFlags, out: Output): Promise<number> {
  if (event !== 'charge.success')
    throw new UsageError(`Unknown event '${event}': the service sends charge.success.`);
  // Echoed with anything up to its last @ hidden: a URL with credentials and a typo (a port of
  // letters) is still refused here, and its password must not reach the log either.
  if (!URL.canParse(flags.to))
    throw new UsageError(
      `--to must be a URL (got '${flags.to.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?.*@/is, '$1***@')}').`,
    );
  const url = new URL(flags.to);
  // A webhook endpoint is HTTP: file:, data: or javascript: would be read, not delivered to.
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--to must be an http: or https: URL (got ${url.protocol}).`);
  // fetch refuses a URL with credentials: every delivery would fail as if the endpoint had, the
  // password printed on each line. Refused before anything is sent, and never repeated.
  if (url.username !== '' || url.password !== '')
    throw new UsageError(
      '--to holds a user name or password (user:pass@): a delivery cannot carry them in its URL. Give the endpoint without them. Nothing was sent.',
    );
  const data = await eventData(flags);
  const reference =
    typeof data.reference === 'string' ? data.reference : JSON.stringify(data.reference ?? null);
  // The sandbox's own bytes (its webhookBody: indented, final newline), signed by the SDK's helper.
  const { body, signature } = signWebhook(webhookBody(event, data), secretOr(flags.secret));
  const results: { attempt: number; status: number | null; received: boolean; answer: string }[] = [];
  for (let attempt = 1; attempt <= flags.repeat; attempt++) {
    let status: number | null = null;
    let answer = '';
    let acknowledged = false;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      // Checked whole, shown cut: an acknowledgement may carry more than `received`.
      const text = await response.text();
      acknowledged = (valueOf(text) as { received?: unknown } | null)?.received === true;
      answer = text.slice(0, 500);
    } catch (error) {
      answer = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    }
    const received = status === 200 && acknowledged;
    results.push({ attempt, status, received, answer });
    const { green, red } = out.colors;
    out.line(
      `${event} ${terminalText(reference)} -> ${terminalText(url.href)}: ${status ?? 'no answer'} ${received ? green('received') : red(`not acknowledged (${terminalText(answer) || 'empty body'})`)}`,
    );
  }
  out.data({ event, reference, body, signature, deliveries: results });
  return results.every((r) => r.received) ? OK : PROBLEM;
}
