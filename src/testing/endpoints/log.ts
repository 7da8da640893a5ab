/** The development server's log: a line per request and per delivery attempt, as the Stripe CLI's `listen`. */
import { callQuietly } from '../../internal/values.js';
import type { SandboxDeliveryAttempt, SandboxRequestRecord } from '../state/records.js';

/** Where the sandbox logs (`console` will do): `info` requests and deliveries; `warn` 5xx, faults, failures. */
export interface SandboxLogger {
  /** One line about something that went as expected. */
  info(line: string): void;
  /** One line about something a developer should look at. */
  warn(line: string): void;
}

// Only the wall-clock time: a developer reads the log live.
const clock = (iso: string): string => iso.slice(11, 23);
const ms = (value: number): string => `${Math.round(value)}ms`;

/** `12:00:01.123 POST /v1/charges/dispatch 200 key=k1 replayed 3ms`. @internal */
export function requestLine(record: SandboxRequestRecord, otherRequest = false): string {
  const parts = [clock(record.at), record.method, record.path, String(record.status)];
  if (record.fault === 'reset' || record.fault === 'reset-after') parts[3] = 'reset';
  if (record.idempotencyKey !== null) parts.push(`key=${record.idempotencyKey}`);
  if (record.replayed)
    parts.push(otherRequest ? "replayed another request's answer (key reused)" : 'replayed');
  if (record.fault !== null) parts.push(`fault=${record.fault}`);
  parts.push(ms(record.durationMs));
  return parts.join(' ');
}

/** `12:00:01.200 webhook charge.success order_1 -> http://... 500 attempt 1/5 12ms, next retry in 50ms`. @internal */
export function deliveryLine(attempt: SandboxDeliveryAttempt): string {
  const outcome = attempt.status === null ? (attempt.error ?? 'failed') : String(attempt.status);
  const head = `${clock(attempt.at)} webhook ${attempt.event} ${attempt.reference} -> ${attempt.url} ${outcome} attempt ${attempt.attempt}/${attempt.of} ${ms(attempt.durationMs)}`;
  if (attempt.ok) return `${head}, delivered`;
  if (attempt.nextRetryAt === null) return `${head}, giving up`;
  const wait = Date.parse(attempt.nextRetryAt) - Date.parse(attempt.at) - attempt.durationMs;
  return `${head}, next retry in ${ms(Math.max(0, wait))} (${clock(attempt.nextRetryAt)})`;
}

// Controls, separators, characters that draw nothing: a reference could forge a line or pass for another.
const CONTROLS = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029]/gu;

/** `\u001b[2K\r` becomes the visible text `\x1b[2K\x0d`. @internal */
export function escapeControls(line: string): string {
  return line.replace(CONTROLS, (c) => {
    const hex = c.codePointAt(0)!.toString(16);
    if (hex.length <= 2) return `\\x${hex.padStart(2, '0')}`;
    return hex.length <= 4 ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
  });
}

/** Sends each line, escaped, to every logger attached; a broken sink loses a line, never throws. @internal */
export class LogLines {
  readonly #sinks = new Set<{ logger: SandboxLogger }>();

  /** Attaches a logger; returns what detaches it. */
  attach(logger: SandboxLogger | undefined): () => void {
    if (logger === undefined) return () => undefined;
    const sink = { logger }; // one entry per attach, even of the same logger
    this.#sinks.add(sink);
    return () => void this.#sinks.delete(sink);
  }

  write(level: keyof SandboxLogger, line: string): void {
    const safe = escapeControls(line);
    for (const sink of this.#sinks) callQuietly(() => sink.logger[level](safe));
  }

  /** `12:00:01.100 customer authorize order_1: SUCCESS`: something the sandbox did, at its time `at`. */
  note(at: Date, text: string): void {
    this.write('info', `${clock(at.toISOString())} ${text}`);
  }
}
