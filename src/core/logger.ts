import type { ValidationIssue } from '../errors.js';

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

/** Builds the client's logger from its options, recording a problem for an unknown level. */
export function createLogger(sink: LogSink | undefined, level: unknown, issues: ValidationIssue[]): Logger {
  const out = sink ?? console;
  if ((['debug', 'info', 'warn', 'error'] as const).some((m) => typeof out[m] !== 'function')) {
    issues.push({ path: 'logger', message: "must have console's debug, info, warn and error methods" });
  }
  let threshold = RANK.warn;
  if (level !== undefined && level !== '') {
    const rank = RANK[level as LogLevel];
    if (typeof level !== 'string' || rank === undefined) {
      issues.push({ path: 'logLevel', message: "must be 'debug', 'info', 'warn', 'error' or 'off'" });
    } else threshold = rank;
  }
  return {
    enabled: (l) => RANK[l] >= threshold,
    log(l, message, details) {
      if (RANK[l] < threshold) return;
      if (details) out[l](`[wallet] ${message}`, details);
      else out[l](`[wallet] ${message}`);
    },
  };
}

const PHONE = /^\+?[\d\s()-]{7,}$/;

function maskText(text: string): string {
  if (text.length <= 2) return '*'.repeat(text.length);
  return `${text.slice(0, 1)}${'*'.repeat(Math.max(3, text.length - 2))}${text.slice(-1)}`;
}

function maskPhone(text: string): string {
  const digits = text.replace(/\D/g, '');
  return `${text.startsWith('+') ? '+' : ''}${'*'.repeat(Math.max(0, digits.length - 3))}${digits.slice(-3)}`;
}

/**
 * A copy of a request or response body fit for debug logs: phone numbers (including a handle that
 * is a phone number) and customer names are masked. Keys never travel in bodies, so none to mask.
 */
export function maskPersonalData(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (key === 'phone' || (key === 'handle' && PHONE.test(value))) return maskPhone(value);
    if (key === 'name' || key === 'customerName') return maskText(value);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => maskPersonalData(v));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskPersonalData(v, k);
    return out;
  }
  return value;
}
