/**
 * The spend ledger in this process's memory: for tests and demos only, asked for by name. Its
 * totals start at zero whenever the process starts, so a restart would start the day again.
 */
import {
  DEFAULT_TIME_ZONE,
  repeats,
  dayIn,
  type JournalEntry,
  type SpendLedger,
  type SpendLedgerOptions,
} from './ledger.js';

/**
 * A ledger in memory. Every restart of the process starts the day at zero: use it in tests, never
 * for an agent that moves real money ({@link sqliteSpendLedger} is the default).
 *
 * @example
 * ```ts
 * const tools = walletTools({ wallet, ledger: memorySpendLedger(), allow: ['refund_charge'] });
 * ```
 */
export function memorySpendLedger(options: SpendLedgerOptions = {}): SpendLedger {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const today = dayIn(timeZone, 'memorySpendLedger');
  const now = options.now ?? Date.now;
  const totals = new Map<string, number>();
  const journal = new Map<string, JournalEntry>();
  const tokens = new Map<string, number>();
  const sum = (kind: string, day: string): string => `${kind}:${day}`;
  return {
    timeZone,
    begin(request) {
      const at = now();
      // The token's own operation first, then the oldest in doubt: the order every ledger answers in.
      const doubted = (entry: JournalEntry | undefined): entry is JournalEntry =>
        entry !== undefined && repeats(entry, request.call, request.token?.id, at);
      let prior = request.token === undefined ? undefined : journal.get(request.token.id);
      if (!doubted(prior)) {
        prior = undefined;
        for (const entry of journal.values()) {
          if (!doubted(entry)) continue;
          prior = entry;
          break;
        }
      }
      if (prior !== undefined) {
        // A token that confirmed the repeat is spent too: used again later, it moves nothing.
        if (request.token !== undefined) tokens.set(request.token.id, at + request.token.ttlMs);
        return Promise.resolve({ state: 'repeat', entry: { ...prior } });
      }
      for (const [token, expires] of tokens) if (expires <= at) tokens.delete(token);
      if (request.token !== undefined && tokens.has(request.token.id))
        return Promise.resolve({ state: 'token_used' });
      const day = today(at);
      const before = totals.get(sum(request.kind, day)) ?? 0;
      if (request.limit !== undefined && before + request.amount > request.limit)
        return Promise.resolve({ state: 'over', total: before });
      totals.set(sum(request.kind, day), before + request.amount);
      const { limit: _limit, token, ...rest } = request;
      const entry: JournalEntry = { ...rest, day, state: 'sent', at };
      journal.set(entry.key, entry);
      if (token !== undefined) tokens.set(token.id, at + token.ttlMs);
      return Promise.resolve({ state: 'begun', entry: { ...entry }, total: before + request.amount });
    },
    finish(key, state) {
      const entry = journal.get(key);
      if (entry === undefined || entry.state === 'failed') return Promise.resolve();
      if (state === 'failed') {
        const before = totals.get(sum(entry.kind, entry.day)) ?? 0;
        totals.set(sum(entry.kind, entry.day), Math.max(0, before - entry.amount));
      }
      entry.state = state;
      return Promise.resolve();
    },
    journal(reference) {
      return Promise.resolve(
        [...journal.values()].filter((entry) => entry.reference === reference).map((entry) => ({ ...entry })),
      );
    },
    total(kind, day) {
      return Promise.resolve(totals.get(sum(kind, day ?? today(now()))) ?? 0);
    },
  };
}
