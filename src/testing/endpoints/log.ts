/**
 * The development server's log: one line per request answered and one per webhook delivery
 * attempt, in the shape a merchant scans in a terminal, like the Stripe CLI's `listen`. Off unless
 * the sandbox gets a `logger`; the bin always gives one.
 */
import type { SandboxDeliveryAttempt, SandboxRequestRecord } from '../state/records.js';

/**
 * Where the sandbox writes its log lines: `console` will do. `info` gets requests and delivered
 * webhooks; `warn` gets 5xx answers, injected faults and failed deliveries.
 */
export interface SandboxLogger {
  /** One line about something that went as expected. */
  info(line: string): void;
  /** One line about something a developer should look at. */
  warn(line: string): void;
}

// Only the wall-clock time: a developer reads the log live, the date adds nothing.
function clock(iso: string): string {
  return iso.slice(11, 23);
}

function ms(value: number): string {
  return `${Math.round(value)}ms`;
}

/** `12:00:01.123 POST /v1/charges/dispatch 200 key=k1 replayed 3ms`. @internal */
export function requestLine(record: SandboxRequestRecord): string {
  const parts = [clock(record.at), record.method, record.path, String(record.status)];
  if (record.fault === 'reset' || record.fault === 'reset-after') parts[3] = 'reset';
  if (record.idempotencyKey !== null) parts.push(`key=${record.idempotencyKey}`);
  if (record.replayed) parts.push('replayed');
  if (record.fault !== null) parts.push(`fault=${record.fault}`);
  parts.push(ms(record.durationMs));
  return parts.join(' ');
}

/**
 * `12:00:01.200 webhook charge.success order_1 -> http://... 500 attempt 1/5 12ms, next retry in 50ms`.
 * @internal
 */
export function deliveryLine(attempt: SandboxDeliveryAttempt): string {
  const outcome = attempt.status === null ? (attempt.error ?? 'failed') : String(attempt.status);
  const head = `${clock(attempt.at)} webhook ${attempt.event} ${attempt.reference} -> ${attempt.url} ${outcome} attempt ${attempt.attempt}/${attempt.of} ${ms(attempt.durationMs)}`;
  if (attempt.ok) return `${head}, delivered`;
  if (attempt.nextRetryAt === null) return `${head}, giving up`;
  const wait = Date.parse(attempt.nextRetryAt) - Date.parse(attempt.at) - attempt.durationMs;
  return `${head}, next retry in ${ms(Math.max(0, wait))} (${clock(attempt.nextRetryAt)})`;
}

/** `12:00:01.100 customer authorize order_1: SUCCESS`, for the controls that play the customer. @internal */
export function controlLine(at: Date, action: string, reference: string, status: string): string {
  return `${clock(at.toISOString())} customer ${action} ${reference}: ${status}`;
}

/**
 * `12:00:01.100 sandbox full (maxCharges 100000): forgot 1000 oldest finished charges, order_1 to order_1000`:
 * charges forgotten to keep the sandbox's memory bounded.
 * @internal
 */
export function forgetLine(at: Date, references: readonly string[], maxCharges: number): string {
  const span = references.length === 1 ? references[0] : `${references[0]} to ${references.at(-1)}`;
  const what = references.length === 1 ? 'oldest finished charge' : 'oldest finished charges';
  return `${clock(at.toISOString())} sandbox full (maxCharges ${maxCharges}): forgot ${references.length} ${what}, ${span}`;
}

/** A logger that never throws into the sandbox: a broken sink loses a line, not a request. @internal */
export function safeLogger(logger: SandboxLogger | undefined): SandboxLogger | undefined {
  if (logger === undefined) return undefined;
  const guard =
    (write: (line: string) => void) =>
    (line: string): void => {
      try {
        write(line);
      } catch {
        // A log sink that throws must not turn an answered request into a failed one.
      }
    };
  return { info: guard((line) => logger.info(line)), warn: guard((line) => logger.warn(line)) };
}
