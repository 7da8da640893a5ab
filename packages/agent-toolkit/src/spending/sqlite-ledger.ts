/** The spend ledger in a SQLite file (`node:sqlite`) shared by every process that opens it. */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { WalletError } from '@wallet/node';
import { MAX_TIMER_MS, ofType, wholeNumber } from '@wallet/node/workspace';
import {
  ledgerDays,
  storedLedger,
  timeZoneMismatch,
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

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS totals (kind TEXT NOT NULL, day TEXT NOT NULL, total INTEGER NOT NULL,
  PRIMARY KEY (kind, day));
CREATE TABLE IF NOT EXISTS journal (key TEXT PRIMARY KEY, tool TEXT NOT NULL, reference TEXT NOT NULL,
  kind TEXT NOT NULL, amount INTEGER NOT NULL, day TEXT NOT NULL, state TEXT NOT NULL,
  call TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS journal_reference ON journal (reference);
CREATE INDEX IF NOT EXISTS journal_call ON journal (call, state);
CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, expires INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tokens_expires ON tokens (expires);`;

/**
 * The file a ledger path names, as SQLite reads it (a `file:` URI's path without its authority,
 * percent-decoded), or undefined where SQLite opens no file (in memory, or a URI with no path: a
 * private temporary file). @internal
 */
export function ledgerFileOf(path: string): string | undefined {
  // As SQLite reads it: 'FILE:' is no URI (a relative name), and MODE=memory no parameter it knows.
  const uri = path.startsWith('file:');
  let file = path;
  if (uri) {
    // file:///abs and file://localhost/abs name /abs (pathToFileURL's form); %20 is a space.
    file = path
      .slice('file:'.length)
      .replace(/[?#].*$/s, '')
      .replace(/^\/\/[^/]*/, '');
    try {
      file = decodeURIComponent(file);
    } catch {
      // a malformed escape: judged as written
    }
    if (process.platform === 'win32') file = file.replace(/^\/(?=[A-Za-z]:)/, '');
  }
  const memory =
    file === ':memory:' || (uri && (file === '' || /[?&](?:mode=memory|vfs=memdb)(?:[&#]|$)/.test(path)));
  return memory ? undefined : file;
}

/**
 * A ledger in a SQLite file, the default: a restart of the process, of the MCP server, or a tool
 * set built per request keeps the day's totals, and every process on the machine shares them.
 *
 * @throws WalletError `ledger_required` on a Node without `node:sqlite` (pass a ledger instead),
 * when the file cannot be opened (a directory, not SQLite, no permission), the path is empty, relative
 * (found from the working directory, it would be another file, with a fresh day, for the same agent
 * started elsewhere: give an absolute one) or opens in memory (':memory:', a file: URI with
 * mode=memory or vfs=memdb),
 * `time_zone_mismatch` when the file was created with another time zone.
 * @example
 * ```ts
 * const ledger = sqliteSpendLedger({ path: '/var/lib/shop/spend-ledger.sqlite' });
 * const tools = walletTools({ wallet, ledger, allow: ['refund_charge'], limits: { dailyRefunds: 5_000_000 } });
 * ```
 */
export function sqliteSpendLedger(given: SqliteSpendLedgerOptions = {}): SpendLedger {
  const sqlite = process.getBuiltinModule('node:sqlite') as SqliteModule | undefined;
  if (sqlite === undefined) {
    throw new WalletError(
      `This Node (${process.version}) has no node:sqlite for the default spend ledger: use Node 22.13 or later, or pass a ledger (redisSpendLedger(client) for a fleet; memorySpendLedger() only for tests, it forgets the day on restart).`,
      'ledger_required',
    );
  }
  const { options: checked, ...days } = ledgerDays(given, 'sqliteSpendLedger', {
    path: ofType('string'),
    busyTimeout: wholeNumber(0, MAX_TIMER_MS),
  });
  // XDG says to ignore a relative value: it would give each working directory its own ledger.
  const xdg = process.env['XDG_STATE_HOME']?.trim();
  const state = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'state');
  const path = checked.path ?? join(state, 'wallet', 'spend-ledger.sqlite');
  // SQLite opens '' as a private temporary file: shared by no process, forgotten on restart.
  if (typeof path === 'string' && path.trim() === '') {
    throw new WalletError(
      'The spend ledger path is empty: give a file path, or leave path out for the default file.',
      'ledger_required',
    );
  }
  // Resolving it here would not help: each start from another folder would resolve it elsewhere.
  const file = ledgerFileOf(path);
  if (file !== undefined && !isAbsolute(file)) {
    throw new WalletError(
      `The spend ledger path ${JSON.stringify(path)} is relative: SQLite would find it from the working directory, so the same agent started from another folder would open another file and count the day from zero. Give an absolute path, such as ${JSON.stringify(resolve(file))} or one built from your app's folder (join(import.meta.dirname, 'spend-ledger.sqlite')), or leave path out for the default file.`,
      'ledger_required',
    );
  }
  let db: Database | undefined;
  try {
    // The folder of the file SQLite opens: a file: URI's own dirname would be made in the working directory.
    if (file !== undefined) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    db = new sqlite.DatabaseSync(path);
    db.exec(`PRAGMA busy_timeout = ${Math.trunc(checked.busyTimeout ?? 5000)}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(SCHEMA);
  } catch (error) {
    // A directory, a file that is not SQLite, no permission: the setup is wrong, so say where.
    const why = error instanceof Error ? error.message : String(error);
    db?.close();
    throw new WalletError(`The spend ledger ${path} could not be opened: ${why}`, 'ledger_required');
  }
  // ':memory:' or a file: URI with mode=memory opens no file: forgotten on restart, shared by no process.
  const main = db
    .prepare('PRAGMA database_list')
    .all()
    .find((row) => row['name'] === 'main');
  if (!main?.['file']) {
    db.close();
    throw new WalletError(
      `The spend ledger ${JSON.stringify(path)} opens in memory, not a file: its totals would be forgotten on restart and shared by no other process. Give a file path, leave path out for the default file, or use memorySpendLedger() by name (tests only).`,
      'ledger_required',
    );
  }
  const q = {
    candidates: db.prepare(
      `SELECT * FROM journal WHERE state IN ('sent', 'unknown') AND (key = ?1 OR call = ?2)
        ORDER BY key IS ?1 DESC, rowid`,
    ),
    prune: db.prepare('DELETE FROM tokens WHERE expires <= ?'),
    token: db.prepare('SELECT 1 AS used FROM tokens WHERE token = ?'),
    spend: db.prepare('INSERT OR IGNORE INTO tokens (token, expires) VALUES (?, ?)'),
    total: db.prepare('SELECT total FROM totals WHERE kind = ? AND day = ?'),
    add: db.prepare(
      'INSERT INTO totals (kind, day, total) VALUES (?1, ?2, MAX(0, ?3)) ON CONFLICT (kind, day) DO UPDATE SET total = MAX(0, total + ?3)',
    ),
    insert: db.prepare(
      `INSERT INTO journal (key, tool, reference, kind, amount, day, state, call, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    entry: db.prepare('SELECT * FROM journal WHERE key = ?'),
    state: db.prepare('UPDATE journal SET state = ? WHERE key = ?'),
    byReference: db.prepare('SELECT * FROM journal WHERE reference = ? ORDER BY at, rowid'),
  };
  // BEGIN IMMEDIATE takes the write lock first, so the read that decides and the write are one step.
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
  // The first process to open the file sets its time zone, which never changes after.
  db.prepare(`INSERT OR IGNORE INTO meta (name, value) VALUES ('time_zone', ?)`).run(days.timeZone);
  const stored = String(db.prepare(`SELECT value FROM meta WHERE name = 'time_zone'`).get()?.['value']);
  if (stored !== days.timeZone) {
    db.close();
    throw timeZoneMismatch(stored, days.timeZone, `in ${path}`);
  }
  const entries = (rows: Record<string, unknown>[]): JournalEntry[] => rows as unknown as JournalEntry[];
  return storedLedger(
    {
      atomically,
      candidates: (call, token) => entries(q.candidates.all(token ?? null, call)),
      spent(token, now) {
        q.prune.run(now);
        return q.token.get(token) !== undefined;
      },
      spend: (token, expires) => void q.spend.run(token, expires),
      total: (kind, day) => Number(q.total.get(kind, day)?.['total'] ?? 0),
      add: (kind, day, amount) => void q.add.run(kind, day, amount),
      insert: ({ key, tool, reference, kind, amount, day, state, call, at }) =>
        void q.insert.run(key, tool, reference, kind, amount, day, state, call, at),
      entry: (key) => q.entry.get(key) as unknown as JournalEntry | undefined,
      setState: (key, state) => void q.state.run(state, key),
      byReference: (reference) => entries(q.byReference.all(reference)),
    },
    days,
  );
}
