import type * as DiagnosticsChannel from 'node:diagnostics_channel';
import { callQuietly } from '../internal/values.js';
import { platform } from '../platform/index.js';
import type { WithResponse } from './types.js';
import type { ValidationIssue } from '../errors/base.js';
import type { Scrubber } from './scrub.js';

// What the client reports of its calls: scrubbed log lines, and `diagnostics_channel` events that
// carry nothing private (no key, parameters, data or server text).

/** An error as the channel shows it: its class name and code, never the server's text. */
export interface TracedError extends Error {
  /** The SDK error's stable code, for example `not_found` or `connection_timeout`. */
  readonly code: string;
}

/**
 * The context object of one call on `wallet:request`: the same object in its start, end,
 * asyncStart, asyncEnd and error events, filled in as the call goes (use it as a map key).
 */
export interface RequestTraceMessage {
  /** HTTP method. */
  readonly method: 'GET' | 'POST';
  /** The endpoint template, for example `/v1/charges/verify/{reference}`: no reference in it. */
  readonly endpoint: string;
  /** The POST's `X-Idempotency-Key`, once the call is prepared; `undefined` for GET. */
  idempotencyKey: string | undefined;
  /** Attempts made so far; final at asyncEnd. 0 when nothing was sent (a refused parameter). */
  attempts: number;
  /** HTTP status of the last response, `undefined` when none arrived. */
  status: number | undefined;
  /** True when a POST may have acted without a definitive answer (see the errors' field). */
  outcomeUnknown: boolean;
  /** Set for the error event: the SDK error's name and code. */
  error?: TracedError;
}

/** The message of `wallet:request:retry`, published before the wait that precedes each retry. */
export interface RequestRetryMessage {
  /** The call's {@link RequestTraceMessage}, as on `wallet:request`. */
  readonly request: RequestTraceMessage;
  /** The attempt about to be made: 2 for the first retry. */
  readonly attempt: number;
  /** Milliseconds the SDK waits before it (backoff or `Retry-After`). */
  readonly delay: number;
  /** Why the previous attempt failed: an HTTP status that is retried, a timeout, or no connection. */
  readonly reason: 'status' | 'timeout' | 'network';
  /** The previous attempt's HTTP status, for `reason: 'status'`. */
  readonly status: number | undefined;
}

/** Told before each retry's wait, with the call's account so far. @internal */
export type RetryTrace = (
  attempt: number,
  delay: number,
  failed: { kind: string; status?: number; reason?: string },
  call: { idempotencyKey: string | undefined; outcomeUnknown: boolean },
) => void;

type Channels = {
  tracing: DiagnosticsChannel.TracingChannel<object, RequestTraceMessage>;
  retry: DiagnosticsChannel.Channel;
};
let channels: Channels | null | undefined;

/** Runs one call under `wallet:request` when someone listens; the channel sees only a {@link TracedError}. @internal */
export function traceCall<T>(
  method: 'GET' | 'POST',
  endpoint: string,
  run: (retry: RetryTrace | undefined) => Promise<WithResponse<T>>,
): Promise<WithResponse<T>> {
  if (channels === undefined) {
    const dc = platform.diagnostics();
    channels =
      typeof dc?.tracingChannel === 'function'
        ? { tracing: dc.tracingChannel('wallet:request'), retry: dc.channel('wallet:request:retry') }
        : null;
  }
  const ch = channels;
  if (ch === null || (!ch.tracing.hasSubscribers && !ch.retry.hasSubscribers)) return run(undefined);
  const message: RequestTraceMessage = {
    method,
    endpoint,
    idempotencyKey: undefined,
    attempts: 0,
    status: undefined,
    outcomeUnknown: false,
  };
  const retry: RetryTrace = (attempt, delay, failed, call) => {
    message.attempts = attempt - 1;
    // The last response's status: an attempt that got none (a dropped connection) leaves it as it was.
    if (failed.status !== undefined) message.status = failed.status;
    message.idempotencyKey = call.idempotencyKey;
    message.outcomeUnknown = call.outcomeUnknown;
    if (!ch.retry.hasSubscribers) return;
    const reason = failed.kind !== 'failure' ? 'status' : failed.reason === 'timeout' ? 'timeout' : 'network';
    const event: RequestRetryMessage = { request: message, attempt, delay, reason, status: failed.status };
    ch.retry.publish(event);
  };
  let result: WithResponse<T> | undefined;
  let failure: unknown;
  return ch.tracing
    .tracePromise(async () => {
      try {
        result = await run(retry);
      } catch (error) {
        failure = error;
        // The call's fields every SDK error carries; read defensively, since a bug may throw anything.
        const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
        if (typeof fields.idempotencyKey === 'string') message.idempotencyKey = fields.idempotencyKey;
        if (typeof fields.status === 'number') message.status = fields.status;
        if (typeof fields.attempts === 'number') message.attempts = fields.attempts;
        message.outcomeUnknown = fields.outcomeUnknown === true;
        const name = error instanceof Error ? error.name : 'Error';
        const code = typeof fields.code === 'string' ? fields.code : 'unknown';
        throw Object.assign(new Error(`${name} (${code})`), { name, code });
      }
      const { idempotencyKey, attempts, status } = result.response;
      Object.assign(message, { idempotencyKey, attempts, status, outcomeUnknown: false });
    }, message)
    .then(
      () => result!,
      () => Promise.reject(failure as Error),
    );
}

/** Severity of a log line; `off` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Where log lines go: console, pino, winston or anything with these four methods. */
export interface LogSink {
  /** Each attempt: method, path, status, timing. */
  debug(message: string, details?: Record<string, unknown>): void;
  /** Retries. */
  info(message: string, details?: Record<string, unknown>): void;
  /** Something a merchant should look at. */
  warn(message: string, details?: Record<string, unknown>): void;
  /** Failures. */
  error(message: string, details?: Record<string, unknown>): void;
}

/** A sink filtered to a level. `enabled` lets callers skip building details nobody will see. */
export interface Logger {
  enabled(level: Exclude<LogLevel, 'off'>): boolean;
  log(level: Exclude<LogLevel, 'off'>, message: string, details?: Record<string, unknown>): void;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/** The client's logger: every line scrubbed, a throwing sink harmless; a bad level an issue at `levelName`. */
export function createLogger(
  sink: LogSink | undefined,
  level: unknown,
  issues: ValidationIssue[],
  scrub: Scrubber,
  levelName = 'logLevel',
): Logger {
  const out = sink === undefined ? console : sink;
  if (
    typeof out !== 'object' ||
    out === null ||
    (['debug', 'info', 'warn', 'error'] as const).some((m) => typeof out[m] !== 'function')
  ) {
    issues.push({ path: 'logger', message: "must have console's debug, info, warn and error methods" });
  }
  let threshold = RANK.warn;
  if (level !== undefined && level !== '') {
    const rank =
      typeof level === 'string' && Object.hasOwn(RANK, level) ? RANK[level as LogLevel] : undefined;
    if (rank === undefined) {
      const lower = typeof level === 'string' && Object.hasOwn(RANK, level.toLowerCase());
      const levels = "'debug', 'info', 'warn', 'error' or 'off'";
      issues.push({
        path: levelName,
        message: lower ? `must be lowercase: ${levels}` : `must be ${levels}`,
      });
    } else threshold = rank;
  }
  return {
    enabled: (l) => RANK[l] >= threshold,
    log(l, message, details) {
      if (RANK[l] < threshold) return;
      callQuietly(() => {
        const line = `[wallet] ${scrub.text(message)}`;
        return details ? out[l](line, scrub.value(details) as Record<string, unknown>) : out[l](line);
      });
    },
  };
}

// Shown as they are in debug logs; everything else is masked (allowlist, not denylist).
const SHOWN: ReadonlySet<string> = new Set(['reference', 'amount', 'authChannel', 'channel', 'bankId']);
const PHONE_LIKE = /^\+?[\d\s().-]{7,}$/;

function maskText(text: string): string {
  if (text.length <= 2) return '*'.repeat(text.length);
  return `${text.slice(0, 1)}${'*'.repeat(Math.min(Math.max(3, text.length - 2), 32))}${text.slice(-1)}`;
}

function maskPhone(text: string): string {
  const digits = text.replace(/\D/g, '');
  return `${text.startsWith('+') ? '+' : ''}${'*'.repeat(Math.max(0, digits.length - 3))}${digits.slice(-3)}`;
}

function mask(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.length <= 64 && PHONE_LIKE.test(value) ? maskPhone(value) : maskText(value);
  if (typeof value !== 'object' || value === null) return value === undefined ? undefined : '***';
  if (depth > 4) return '***';
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => mask(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).slice(0, 50))
    out[k] = mask((value as Record<string, unknown>)[k], depth + 1);
  return out;
}

/** Checked parameters fit for debug logs: reference, amount, channels and bank id shown, the rest masked. */
export function maskParams(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(params)) out[key] = SHOWN.has(key) ? params[key] : mask(params[key], 0);
  return out;
}
