/** The spend ledger: day totals and a journal of money calls, changed in atomic check-and-write steps (Redis: in Lua). */
import { ValidationError, WalletError } from '@wallet/node';
import { checkOptions, ofType, readOptions, type OptionRule } from '@wallet/node/workspace';

/** What a daily total counts. */
export type SpendKind = 'charges' | 'refunds';

/** `sent` (on its way, or cut off), `unknown` (the service may have acted), `done`, `failed` (amount given back). */
export type EntryState = 'sent' | 'unknown' | 'done' | 'failed';

/** How long an operation may stay `sent` before it counts as cut off (longer than any call with retries). @internal */
export const CUT_OFF_MS: number = 5 * 60_000;
/** How long the journal keeps an entry (Redis expires it then), and a host's call id stays spent. @internal */
export const JOURNAL_MS: number = 400 * 86_400_000;

/** Whether a call repeats `entry` (same token, or same call in doubt or cut off), so it reuses its key. @internal */
export function repeats(entry: JournalEntry, call: string, token: string | undefined, now: number): boolean {
  if (entry.state !== 'sent' && entry.state !== 'unknown') return false;
  if (token !== undefined && entry.key === token) return true;
  return entry.call === call && (entry.state === 'unknown' || entry.at <= now - CUT_OFF_MS);
}

/** The refunds a journal counts (all but the failed) and their sum, Kobo. @internal */
export function countedRefunds(journal: readonly JournalEntry[]): {
  refunds: JournalEntry[];
  counted: number;
} {
  const refunds = journal.filter((entry) => entry.tool === 'refund_charge' && entry.state !== 'failed');
  return { refunds, counted: refunds.reduce((sum, entry) => sum + entry.amount, 0) };
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

/** What {@link SpendLedger.begin} is asked to journal: a new entry (its key unless it repeats one), its limit and token. */
export interface BeginRequest extends Pick<
  JournalEntry,
  'key' | 'tool' | 'reference' | 'kind' | 'amount' | 'call'
> {
  /** The daily limit of `kind`; none: no limit. */
  limit: number | undefined;
  /** A refund's charge paid this much, Kobo: refused when the refunds counted for `reference` would pass it. */
  paid?: number;
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
  /** With the refunds already counted for the reference it would pass `paid`: nothing journaled. */
  | { state: 'over_paid'; counted: number }
  /** The token was already spent. */
  | { state: 'token_used' }
  /**
   * The same call (tool and arguments) is on its way, unanswered and not yet cut off: nothing
   * journaled, the token left unspent. Sent again under a new key it could act twice.
   */
  | { state: 'in_flight'; entry: JournalEntry };

/**
 * Where the day's totals, the journal and the spent confirmation tokens live.
 * {@link sqliteSpendLedger} (the default) for every process on one machine,
 * {@link redisSpendLedger} for a fleet, {@link memorySpendLedger} for tests.
 */
export interface SpendLedger {
  /** The IANA time zone its days are counted in. */
  readonly timeZone: string;
  /** In one step: reuses an operation this call repeats, else refuses a spent token, the same call in flight, a passed `paid` or `limit`, else counts and journals it; spends the token. */
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

/** A ledger's time zone, clock and `YYYY-MM-DD` date function. @internal */
export interface LedgerDays {
  timeZone: string;
  now: () => number;
  dayOf: (ms: number) => string;
}

const LEDGER_RULES: Readonly<Record<string, OptionRule>> = {
  timeZone: ofType('string'),
  now: (value) => (typeof value === 'function' ? undefined : 'must be a function'),
};

/**
 * A ledger's options read once and checked, with `rules` for its own besides the time zone and
 * clock (a `ValidationError` names each problem: a misspelt `timezone` must not count Lagos days),
 * and its days. @internal
 */
export function ledgerDays<O extends SpendLedgerOptions>(
  given: O,
  what: string,
  rules: Readonly<Record<string, OptionRule>> = {},
): LedgerDays & { options: O } {
  const all = { ...LEDGER_RULES, ...rules };
  const context = `${what} options`;
  const options = readOptions(given, all, context) as O;
  const issues = checkOptions(options, all, '', `an option of ${what}`);
  if (issues.length > 0) throw new ValidationError(context, issues);
  const timeZone = options.timeZone ?? 'Africa/Lagos';
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }); // YYYY-MM-DD
  } catch {
    const message = `${JSON.stringify(timeZone)} is not an IANA time zone such as 'Africa/Lagos'`;
    throw new ValidationError(context, [{ path: 'timeZone', message }]);
  }
  return { timeZone, now: options.now ?? Date.now, dayOf: (ms) => format.format(ms), options };
}

/** A shared ledger created with another time zone than this process's. @internal */
export function timeZoneMismatch(stored: string, configured: string, where: string): WalletError {
  return new WalletError(
    `The spend ledger ${where} counts days in ${JSON.stringify(stored)}, but this process is configured with ${JSON.stringify(configured)}: a fleet on one ledger must share one day. Configure ${JSON.stringify(stored)}, or use another ledger.`,
    'time_zone_mismatch',
  );
}

/** Storage for a ledger whose rules run in this process; `atomically` makes one step of a change. @internal */
export interface LedgerStore {
  atomically<T>(work: () => T): T;
  /** Entries `call` may repeat: the token's own first, then those of the same call, oldest first. */
  candidates(call: string, token: string | undefined): JournalEntry[];
  /** Forgets expired tokens, then says whether `token` was spent. */
  spent(token: string, now: number): boolean;
  spend(token: string, expires: number): void;
  total(kind: SpendKind, day: string): number;
  /** Adds `amount` (negative: gives back) to a day's total, never below zero. */
  add(kind: SpendKind, day: string, amount: number): void;
  insert(entry: JournalEntry): void;
  entry(key: string): JournalEntry | undefined;
  setState(key: string, state: EntryState): void;
  byReference(reference: string): JournalEntry[];
}

/** The ledger's rules over a store in this process. @internal */
export function storedLedger(store: LedgerStore, { timeZone, now, dayOf }: LedgerDays): SpendLedger {
  const step = <T>(work: () => T): Promise<T> => Promise.resolve().then(() => store.atomically(work));
  return {
    timeZone,
    begin: (request) =>
      step((): BeginAnswer => {
        const { limit, token, paid, ...asked } = request;
        const at = now();
        const spend = (): void => {
          if (token !== undefined) store.spend(token.id, at + token.ttlMs);
        };
        const candidates = store.candidates(asked.call, token?.id);
        const prior = candidates.find((entry) => repeats(entry, asked.call, token?.id, at));
        if (prior !== undefined) {
          spend(); // used again later, a token that confirmed a repeat moves nothing
          return { state: 'repeat', entry: { ...prior } };
        }
        // Its own operation journaled is spent too: a host's call id outlives its spent mark, and the
        // same key journaled again would be sent again (a replay told as new, or a second refund).
        if (token !== undefined && (store.spent(token.id, at) || store.entry(asked.key) !== undefined))
          return { state: 'token_used' };
        // Not cut off (repeats found those): its answer may still come, so a second key could act twice.
        const flying = candidates.find((entry) => entry.state === 'sent' && entry.call === asked.call);
        if (flying !== undefined) return { state: 'in_flight', entry: { ...flying } };
        if (paid !== undefined) {
          const { counted } = countedRefunds(store.byReference(asked.reference));
          if (counted + asked.amount > paid) return { state: 'over_paid', counted };
        }
        const day = dayOf(at);
        const before = store.total(asked.kind, day);
        if (limit !== undefined && before + asked.amount > limit) return { state: 'over', total: before };
        store.add(asked.kind, day, asked.amount);
        const entry: JournalEntry = { ...asked, day, state: 'sent', at };
        store.insert(entry);
        spend();
        return { state: 'begun', entry: { ...entry }, total: before + asked.amount };
      }),
    finish: (key, state) =>
      step(() => {
        const entry = store.entry(key);
        if (entry === undefined || entry.state === 'failed') return;
        if (state === 'failed') store.add(entry.kind, entry.day, -entry.amount);
        store.setState(key, state);
      }),
    journal: (reference) => step(() => store.byReference(reference)),
    total: (kind, day) => step(() => store.total(kind, day ?? dayOf(now()))),
  };
}

/**
 * A ledger in memory that forgets the day on restart: for tests, never for real money.
 *
 * @example
 * ```ts
 * const tools = walletTools({ wallet, ledger: memorySpendLedger(), allow: ['refund_charge'] });
 * ```
 */
export function memorySpendLedger(options: SpendLedgerOptions = {}): SpendLedger {
  const totals = new Map<string, number>();
  const journal = new Map<string, JournalEntry>();
  const tokens = new Map<string, number>();
  return storedLedger(
    {
      atomically: (work) => work(),
      candidates: (call, token) =>
        [token === undefined ? undefined : journal.get(token), ...journal.values()].filter(
          (entry): entry is JournalEntry =>
            entry !== undefined && (entry.key === token || entry.call === call),
        ),
      spent(token, now) {
        for (const [id, expires] of tokens) if (expires <= now) tokens.delete(id);
        return tokens.has(token);
      },
      spend: (token, expires) => void tokens.set(token, expires),
      total: (kind, day) => totals.get(`${kind}:${day}`) ?? 0,
      add: (kind, day, amount) =>
        void totals.set(`${kind}:${day}`, Math.max(0, (totals.get(`${kind}:${day}`) ?? 0) + amount)),
      insert: (entry) => void journal.set(entry.key, { ...entry }),
      entry: (key) => journal.get(key),
      setState(key, state) {
        const entry = journal.get(key);
        if (entry !== undefined) entry.state = state;
      },
      byReference: (reference) =>
        [...journal.values()].filter((entry) => entry.reference === reference).map((entry) => ({ ...entry })),
    },
    ledgerDays(options, 'memorySpendLedger'),
  );
}
