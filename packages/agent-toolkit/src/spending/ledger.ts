/**
 * The spend ledger's contract: each day's totals of charges and refunds and a journal of every
 * money-moving operation, changed only in steps that check and write at once, so that no two calls
 * can both fit under a limit only one of them fits under, and a repeat of an operation whose
 * outcome is unknown finds its idempotency key. Three stores keep it: memory, SQLite, Redis.
 */
import { ValidationError, WalletError } from '@wallet/node';

/** What a daily total counts. */
export type SpendKind = 'charges' | 'refunds';

/**
 * Where an operation stands: `sent` (on its way, or cut off before its answer was journaled),
 * `unknown` (the service may have acted), `done` (it acted), `failed` (it did not act: its amount
 * was given back).
 */
export type EntryState = 'sent' | 'unknown' | 'done' | 'failed';

/**
 * How long an operation may stay `sent` before it counts as cut off (its process ended before the
 * answer was journaled): longer than any call with its retries takes. @internal
 */
export const CUT_OFF_MS: number = 5 * 60_000;

/**
 * Whether a new call repeats `entry`, so it must reuse its key: the same call whose outcome is
 * unknown (or that was cut off), or the same confirmation token (the token is the key) while its
 * operation is in doubt. Two calls with the same arguments both in flight are two operations.
 * The SQLite and Redis ledgers say the same in SQL and Lua. @internal
 */
export function repeats(entry: JournalEntry, call: string, token: string | undefined, now: number): boolean {
  if (entry.state !== 'sent' && entry.state !== 'unknown') return false;
  if (token !== undefined && entry.key === token) return true;
  return entry.call === call && (entry.state === 'unknown' || entry.at <= now - CUT_OFF_MS);
}

/** One money-moving operation in the journal. */
export interface JournalEntry {
  /** The idempotency key it was sent with: a repeat sends the same one. */
  key: string;
  /** The tool that sent it. */
  tool: 'dispatch_charge' | 'refund_charge';
  /** The charge's reference. */
  reference: string;
  /** Which daily total it counts against. */
  kind: SpendKind;
  /** The Kobo it counts: what was sent, never what an answer claimed. */
  amount: number;
  /** The day it counts on, `YYYY-MM-DD` in the ledger's time zone. */
  day: string;
  /** See {@link EntryState}. */
  state: EntryState;
  /** The tool and its arguments as canonical JSON: a repeat of the same call matches on it. */
  call: string;
  /** When it was journaled, ms since the epoch. */
  at: number;
}

/** What {@link SpendLedger.begin} is asked to journal. */
export interface BeginRequest {
  /** The idempotency key it will be sent with, unless it repeats a journaled operation. */
  key: string;
  /** The tool sending it. */
  tool: JournalEntry['tool'];
  /** The charge's reference. */
  reference: string;
  /** Which daily total it counts against. */
  kind: SpendKind;
  /** The Kobo it will send. */
  amount: number;
  /** The tool and its arguments as canonical JSON (see {@link JournalEntry.call}). */
  call: string;
  /** The daily limit of `kind`; none: no limit. */
  limit: number | undefined;
  /** A confirmation token to spend in the same step (refused when already spent). */
  token?: { id: string; ttlMs: number };
}

/** The answer of {@link SpendLedger.begin}. */
export type BeginAnswer =
  /** Journaled and counted (and the token spent): send it with `entry.key`. */
  | { state: 'begun'; entry: JournalEntry; total: number }
  /** The same call is in doubt: send it again with `entry.key`, counted once already (the token spent). */
  | { state: 'repeat'; entry: JournalEntry }
  /** It would pass the limit: nothing journaled, the token left unspent. */
  | { state: 'over'; total: number }
  /** The token was already spent. */
  | { state: 'token_used' };

/**
 * Where the day's totals, the journal and the spent confirmation tokens live.
 * {@link sqliteSpendLedger} (the default) for every process on one machine,
 * {@link redisSpendLedger} for a fleet, {@link memorySpendLedger} for tests.
 */
export interface SpendLedger {
  /** The IANA time zone its days are counted in. */
  readonly timeZone: string;
  /**
   * In one step: finds an operation this call repeats (see {@link repeats}), else refuses a spent
   * token, else adds `amount` to today's total unless it would pass `limit`, journals the entry
   * as `sent`; either way (repeat or new) it spends the token.
   */
  begin(request: BeginRequest): Promise<BeginAnswer>;
  /** Records how an operation ended; `failed` gives its amount back, once. */
  finish(key: string, state: Exclude<EntryState, 'sent'>): Promise<void>;
  /** The journal's entries for a charge reference, oldest first. */
  journal(reference: string): Promise<JournalEntry[]>;
  /** The total of `kind` on `day` (default today), Kobo. */
  total(kind: SpendKind, day?: string): Promise<number>;
}

/** Options every ledger takes. */
export interface SpendLedgerOptions {
  /**
   * The merchant's time zone: where a day begins and ends for the daily limits (an IANA name).
   * A shared ledger stores it and refuses a process configured with another (`time_zone_mismatch`).
   * @default 'Africa/Lagos'
   */
  timeZone?: string;
  /** The clock, in ms since the epoch. @default Date.now @internal */
  now?: () => number;
}

/** Today's date in a time zone, `YYYY-MM-DD`. @internal */
export type DayOf = (ms: number) => string;

/** The date function for `timeZone`, or a `ValidationError` naming a zone that does not exist. @internal */
export function dayIn(timeZone: string, what: string): DayOf {
  let format: Intl.DateTimeFormat;
  try {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    throw new ValidationError(`${what} options`, [
      {
        path: 'timeZone',
        message: `${JSON.stringify(timeZone)} is not an IANA time zone such as 'Africa/Lagos'`,
      },
    ]);
  }
  return (ms) => format.format(ms);
}

/** The default day. @internal */
export const DEFAULT_TIME_ZONE = 'Africa/Lagos';

/** A shared ledger created with another time zone than this process's. @internal */
export function timeZoneMismatch(stored: string, configured: string, where: string): WalletError {
  return new WalletError(
    `The spend ledger ${where} counts days in ${JSON.stringify(stored)}, but this process is configured with ${JSON.stringify(configured)}: a fleet on one ledger must share one day. Configure ${JSON.stringify(stored)}, or use another ledger.`,
    'time_zone_mismatch',
  );
}
