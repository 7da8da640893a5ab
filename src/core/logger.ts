import type { ValidationIssue } from '../errors.js';
import type { Scrubber } from './scrub.js';

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

/**
 * Builds the client's logger from its options, recording a problem for an unknown level under
 * `levelName` (the `logLevel` option, or the `WALLET_LOG` variable it came from). Every line and
 * its details pass through the scrubber; a sink that throws cannot break a call.
 */
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
      try {
        const line = `[wallet] ${scrub.text(message)}`;
        if (details) out[l](line, scrub.value(details) as Record<string, unknown>);
        else out[l](line);
      } catch {
        // A logger's failure is not the call's.
      }
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

/**
 * Checked request parameters fit for debug logs: the reference, amount, channel and bank id as
 * they are; handles, phone numbers, names, descriptions, reasons and every metadata value masked.
 */
export function maskParams(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(params)) out[key] = SHOWN.has(key) ? params[key] : mask(params[key], 0);
  return out;
}
