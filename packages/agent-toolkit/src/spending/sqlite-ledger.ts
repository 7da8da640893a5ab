/**
 * The spend ledger in a SQLite file through `node:sqlite` (no dependency): every process on the
 * machine that opens the same file shares the day's totals, the journal and the spent tokens.
 * Each change is one `BEGIN IMMEDIATE` transaction (the write lock is taken before the read), WAL
 * lets readers run beside a writer, and a busy timeout makes a second process wait its turn.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { WalletError } from '@wallet/node';
import {
  CUT_OFF_MS,
  DEFAULT_TIME_ZONE,
  dayIn,
  timeZoneMismatch,
  type BeginAnswer,
  type JournalEntry,
  type SpendLedger,
  type SpendLedgerOptions,
} from './ledger.js';

/** Options of {@link sqliteSpendLedger}. */
export interface SqliteSpendLedgerOptions extends SpendLedgerOptions {
  /**
   * The ledger file, created with its folder when missing.
   * @default '$XDG_STATE_HOME/wallet/spend-ledger.sqlite', else '~/.local/state/wallet/spend-ledger.sqlite'
   */
  path?: string;
  /** How long a call waits for another process's transaction, ms. @default 5000 */
  busyTimeout?: number;
}

// The part of node:sqlite used here (its types are not in every @types/node this builds with).
interface Statement {
  run(...params: (string | number | null)[]): unknown;
  get(...params: (string | number | null)[]): Record<string, unknown> | undefined;
  all(...params: (string | number | null)[]): Record<string, unknown>[];
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
interface SqliteModule {
  DatabaseSync: new (path: string) => Database;
}

/** `node:sqlite` when this Node has it (22.13+, 23.4+; 22.5+ with --experimental-sqlite). @internal */
export function loadSqlite(): SqliteModule | undefined {
  return process.getBuiltinModule('node:sqlite') as SqliteModule | undefined;
}

/** The default ledger file. @internal */
export function defaultLedgerPath(env: NodeJS.ProcessEnv = process.env): string {
  const state = env['XDG_STATE_HOME']?.trim() || join(homedir(), '.local', 'state');
  return join(state, 'wallet', 'spend-ledger.sqlite');
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS totals (kind TEXT NOT NULL, day TEXT NOT NULL, total INTEGER NOT NULL,
  PRIMARY KEY (kind, day));
CREATE TABLE IF NOT EXISTS journal (key TEXT PRIMARY KEY, tool TEXT NOT NULL, reference TEXT NOT NULL,
  kind TEXT NOT NULL, amount INTEGER NOT NULL, day TEXT NOT NULL, state TEXT NOT NULL,
  call TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS journal_reference ON journal (reference);
CREATE INDEX IF NOT EXISTS journal_call ON journal (call, state);
CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, expires INTEGER NOT NULL);`;

/**
 * A ledger in a SQLite file, the default: a restart of the process, of the MCP server, or a tool
 * set built per request keeps the day's totals, and every process on the machine shares them.
 *
 * @throws WalletError `ledger_required` on a Node without `node:sqlite` (pass a ledger instead),
 * `time_zone_mismatch` when the file was created with another time zone.
 * @example
 * ```ts
 * const ledger = sqliteSpendLedger({ path: '/var/lib/shop/spend-ledger.sqlite' });
 * const tools = walletTools({ wallet, ledger, allow: ['refund_charge'], limits: { dailyRefunds: 5_000_000 } });
 * ```
 */
export function sqliteSpendLedger(options: SqliteSpendLedgerOptions = {}): SpendLedger {
  const sqlite = loadSqlite();
  if (sqlite === undefined) {
    throw new WalletError(
      `This Node (${process.version}) has no node:sqlite for the default spend ledger: use Node 22.13 or later, or pass a ledger (redisSpendLedger(client) for a fleet; memorySpendLedger() only for tests, it forgets the day on restart).`,
      'ledger_required',
    );
  }
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const today = dayIn(timeZone, 'sqliteSpendLedger');
  const now = options.now ?? Date.now;
  const path = options.path ?? defaultLedgerPath();
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new sqlite.DatabaseSync(path);
  db.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeout ?? 5000)}`);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(SCHEMA);
  const q = {
    zoneAdd: db.prepare(`INSERT OR IGNORE INTO meta (name, value) VALUES ('time_zone', ?)`),
    zone: db.prepare(`SELECT value FROM meta WHERE name = 'time_zone'`),
    // ledger.ts's repeats(), in SQL; the token's own entry first, then the oldest, as in Redis.
    doubt: db.prepare(
      `SELECT * FROM journal WHERE (key = ?1 AND state IN ('sent', 'unknown'))
        OR (call = ?2 AND (state = 'unknown' OR (state = 'sent' AND at <= ?3)))
        ORDER BY key IS ?1 DESC, rowid LIMIT 1`,
    ),
    prune: db.prepare('DELETE FROM tokens WHERE expires <= ?'),
    token: db.prepare('SELECT 1 AS used FROM tokens WHERE token = ?'),
    spend: db.prepare('INSERT OR IGNORE INTO tokens (token, expires) VALUES (?, ?)'),
    total: db.prepare('SELECT total FROM totals WHERE kind = ? AND day = ?'),
    add: db.prepare(
      'INSERT INTO totals (kind, day, total) VALUES (?, ?, ?) ON CONFLICT (kind, day) DO UPDATE SET total = total + excluded.total',
    ),
    insert: db.prepare(
      `INSERT INTO journal (key, tool, reference, kind, amount, day, state, call, at) VALUES (?, ?, ?, ?, ?, ?, 'sent', ?, ?)`,
    ),
    entry: db.prepare('SELECT * FROM journal WHERE key = ?'),
    state: db.prepare('UPDATE journal SET state = ? WHERE key = ?'),
    give: db.prepare('UPDATE totals SET total = MAX(0, total - ?) WHERE kind = ? AND day = ?'),
    byReference: db.prepare('SELECT * FROM journal WHERE reference = ? ORDER BY at, rowid'),
  };
  // Takes the write lock first, so the read that decides and the write that follows are one step.
  const atomically = <T>(work: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };
  const stored = atomically(() => {
    q.zoneAdd.run(timeZone);
    return String(q.zone.get()?.['value']);
  });
  if (stored !== timeZone) {
    db.close();
    throw timeZoneMismatch(stored, timeZone, `in ${path}`);
  }
  const totalOf = (kind: string, day: string): number => Number(q.total.get(kind, day)?.['total'] ?? 0);
  return {
    timeZone,
    begin(request) {
      return Promise.resolve().then(() =>
        atomically((): BeginAnswer => {
          const at = now();
          const prior = q.doubt.get(request.token?.id ?? null, request.call, at - CUT_OFF_MS);
          if (prior !== undefined) {
            // A token that confirmed the repeat is spent too: used again later, it moves nothing.
            if (request.token !== undefined) q.spend.run(request.token.id, at + request.token.ttlMs);
            return { state: 'repeat', entry: prior as unknown as JournalEntry };
          }
          q.prune.run(at);
          if (request.token !== undefined && q.token.get(request.token.id) !== undefined)
            return { state: 'token_used' };
          const day = today(at);
          const before = totalOf(request.kind, day);
          if (request.limit !== undefined && before + request.amount > request.limit)
            return { state: 'over', total: before };
          q.add.run(request.kind, day, request.amount);
          const { key, tool, reference, kind, amount, call } = request;
          q.insert.run(key, tool, reference, kind, amount, day, call, at);
          if (request.token !== undefined) q.spend.run(request.token.id, at + request.token.ttlMs);
          const entry: JournalEntry = { key, tool, reference, kind, amount, day, state: 'sent', call, at };
          return { state: 'begun', entry, total: before + amount };
        }),
      );
    },
    finish(key, state) {
      return Promise.resolve().then(() =>
        atomically(() => {
          const entry = q.entry.get(key) as unknown as JournalEntry | undefined;
          if (entry === undefined || entry.state === 'failed') return;
          if (state === 'failed') q.give.run(entry.amount, entry.kind, entry.day);
          q.state.run(state, key);
        }),
      );
    },
    journal(reference) {
      return Promise.resolve().then(() => q.byReference.all(reference) as unknown as JournalEntry[]);
    },
    total(kind, day) {
      return Promise.resolve().then(() => totalOf(kind, day ?? today(now())));
    },
  };
}
