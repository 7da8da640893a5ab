/**
 * The ledgers that run without a service: memory (by name only) and SQLite (the default, where
 * this Node has node:sqlite; elsewhere `ledger_required`, asserted, never skipped). A SQLite file
 * keeps the day across restarts and refuses a process with another time zone.
 */
// Each Node line registers the branch that applies to it (CI runs 20, 22, 24 and 26), so npm test
// reports nothing skipped.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';

import {
  memorySpendLedger,
  sqliteSpendLedger,
  walletTools,
  type SpendLedger,
} from '../../packages/agent-toolkit/src/index.js';
import { caught } from '../helpers/caught.js';
import { ledgerContract, request } from './ledger-contract.js';
import { HAS_SQLITE, ledgerFile } from './processes.js';
import { TEST_KEY } from './setup.js';

describe('memorySpendLedger', () => {
  ledgerContract((clock, timeZone) => {
    const one = memorySpendLedger({ now: () => clock.now, ...(timeZone ? { timeZone } : {}) });
    return [one, one];
  });

  it('refuses an option it does not know (a misspelt timeZone would count Lagos days) or cannot use', () => {
    expect(() => memorySpendLedger({ timezone: 'UTC' } as never)).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        issues: [expect.objectContaining({ path: 'timezone', message: expect.stringContaining('timeZone') })],
      }),
    );
    expect(() => memorySpendLedger({ now: 5 } as never)).toThrow(
      expect.objectContaining({ issues: [{ path: 'now', message: 'must be a function' }] }),
    );
    let reads = 0;
    const config = {
      get timeZone() {
        reads += 1;
        return reads === 1 ? 'UTC' : 'Not/AZone';
      },
    };
    expect(memorySpendLedger(config).timeZone).toBe('UTC');
    expect(reads).toBe(1);
  });
});

if (HAS_SQLITE)
  describe(`sqliteSpendLedger (node:sqlite on ${process.version})`, () => {
    ledgerContract((clock) => {
      const path = ledgerFile();
      return [
        sqliteSpendLedger({ path, now: () => clock.now }),
        sqliteSpendLedger({ path, now: () => clock.now }),
      ];
    });

    it('keeps the day across a restart: a new ledger on the same file knows the totals and the journal', async () => {
      const path = ledgerFile();
      const clock = { now: Date.parse('2026-11-24T12:00:00Z') };
      const first: SpendLedger = sqliteSpendLedger({ path, now: () => clock.now });
      await first.begin(request(250_000, { reference: 'restart_1' }));
      const after = sqliteSpendLedger({ path, now: () => clock.now });
      expect(await after.total('refunds')).toBe(250_000);
      expect(await after.begin(request(60_000))).toMatchObject({ state: 'over', total: 250_000 });
      expect((await after.journal('restart_1')).map((e) => e.amount)).toEqual([250_000]);
    });

    it('refuses a file it cannot open (a directory) with ledger_required naming the path', () => {
      const dir = ledgerFile().replace(/spend-ledger\.sqlite$/, '');
      expect(() => sqliteSpendLedger({ path: dir })).toThrow(
        expect.objectContaining({
          code: 'ledger_required',
          message: expect.stringContaining(`The spend ledger ${dir} could not be opened`),
        }),
      );
    });

    it('refuses an empty path, which SQLite opens as a private temporary file no other process shares', () => {
      expect(() => sqliteSpendLedger({ path: '' })).toThrow(
        expect.objectContaining({
          code: 'ledger_required',
          message: expect.stringContaining('path is empty'),
        }),
      );
    });

    it('refuses a path SQLite opens in memory (:memory:, a file: URI), which forgets the day on restart', () => {
      for (const path of [':memory:', 'file::memory:', 'file:ledger?mode=memory']) {
        expect(() => sqliteSpendLedger({ path }), path).toThrow(
          expect.objectContaining({
            code: 'ledger_required',
            message: expect.stringContaining('in memory'),
          }),
        );
      }
    });

    it('refuses a relative path, which another working directory would open as another file with a fresh day', () => {
      const name = `wallet-relative-ledger-${process.pid}.sqlite`;
      try {
        for (const path of [name, `file:${name}`]) {
          expect(() => sqliteSpendLedger({ path }), path).toThrow(
            expect.objectContaining({
              code: 'ledger_required',
              message: expect.stringContaining(JSON.stringify(join(process.cwd(), name))),
            }),
          );
        }
        expect(existsSync(name)).toBe(false);
      } finally {
        for (const file of [name, `${name}-wal`, `${name}-shm`]) rmSync(file, { force: true });
      }
    });

    it('opens a file: URI (pathToFileURL) where it points, its folder made there and none in the working directory', async () => {
      const dir = ledgerFile().replace(/spend-ledger\.sqlite$/, '');
      const file = join(dir, 'new folder', 'spend-ledger.sqlite');
      const stray = join(process.cwd(), 'file:');
      try {
        const ledger = sqliteSpendLedger({ path: pathToFileURL(file).href });
        await ledger.begin(request(1_000, { reference: 'uri_1' }));
        expect(await sqliteSpendLedger({ path: file }).total('refunds')).toBe(1_000);
        expect(existsSync(stray)).toBe(false);
      } finally {
        rmSync(stray, { recursive: true, force: true });
      }
    });

    it('judges file: URIs as SQLite does, case and all: FILE:/abs and MODE=memory are relative files, refused', () => {
      const dir = ledgerFile().replace(/spend-ledger\.sqlite$/, '');
      const name = `wallet-mode-ledger-${process.pid}.sqlite`;
      const made = [join(process.cwd(), 'FILE:'), join(process.cwd(), name)];
      try {
        for (const path of [`FILE:${dir}spend-ledger.sqlite`, `file:${name}?MODE=memory`]) {
          expect(() => sqliteSpendLedger({ path }), path).toThrow(
            expect.objectContaining({
              code: 'ledger_required',
              message: expect.stringContaining('relative'),
            }),
          );
        }
        for (const file of made) expect(existsSync(file), file).toBe(false);
      } finally {
        for (const file of made) rmSync(file, { recursive: true, force: true });
      }
    });

    it('refuses a file: URI with no path (a private temporary file) as in memory, naming no folder', () => {
      for (const path of ['file:', 'file://', 'file:?mode=rwc']) {
        expect(() => sqliteSpendLedger({ path }), path).toThrow(
          expect.objectContaining({
            code: 'ledger_required',
            message: expect.not.stringContaining(JSON.stringify(process.cwd())),
          }),
        );
        expect(() => sqliteSpendLedger({ path }), path).toThrow(/in memory/);
      }
    });

    it('refuses a busyTimeout it cannot use (NaN from an unset variable) before opening anything', () => {
      expect(() => sqliteSpendLedger({ path: ledgerFile(), busyTimeout: Number.NaN })).toThrow(
        expect.objectContaining({
          code: 'invalid_request',
          issues: [expect.objectContaining({ path: 'busyTimeout' })],
        }),
      );
    });

    it('stores its time zone and refuses a process configured with another (time_zone_mismatch)', () => {
      const path = ledgerFile();
      sqliteSpendLedger({ path, timeZone: 'Africa/Lagos' });
      expect(() => sqliteSpendLedger({ path, timeZone: 'UTC' })).toThrow(
        expect.objectContaining({ code: 'time_zone_mismatch' }),
      );
      expect(sqliteSpendLedger({ path }).timeZone).toBe('Africa/Lagos');
    });

    it('is the default ledger of walletTools', async () => {
      const old = process.env['XDG_STATE_HOME'];
      process.env['XDG_STATE_HOME'] = ledgerFile().replace(/spend-ledger\.sqlite$/, '');
      try {
        const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:9' });
        expect(walletTools({ wallet }).map((t) => t.name)).toContain('get_charge');
        const ledger = sqliteSpendLedger();
        expect(await ledger.total('refunds')).toBe(0);
      } finally {
        if (old === undefined) delete process.env['XDG_STATE_HOME'];
        else process.env['XDG_STATE_HOME'] = old;
      }
    });

    it('ignores a relative XDG_STATE_HOME (as XDG says): the default file must not move with the working directory', async () => {
      const saved = { xdg: process.env['XDG_STATE_HOME'], home: process.env['HOME'] };
      const home = ledgerFile().replace(/spend-ledger\.sqlite$/, '');
      const relative = `wallet-relative-state-${process.pid}`;
      process.env['XDG_STATE_HOME'] = relative;
      process.env['HOME'] = home;
      try {
        await sqliteSpendLedger().begin(request(1_000));
        expect(existsSync(join(home, '.local', 'state', 'wallet', 'spend-ledger.sqlite'))).toBe(true);
        expect(existsSync(relative)).toBe(false);
      } finally {
        rmSync(relative, { recursive: true, force: true });
        for (const [name, value] of [
          ['XDG_STATE_HOME', saved.xdg],
          ['HOME', saved.home],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    });
  });

if (!HAS_SQLITE)
  describe(`without node:sqlite (${process.version})`, () => {
    it('walletTools without a ledger throws ledger_required, naming the choices', async () => {
      const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:9' });
      const error = await caught(Promise.resolve().then(() => walletTools({ wallet })));
      expect(error).toMatchObject({ code: 'ledger_required' });
      expect(error?.message).toContain('redisSpendLedger');
      expect(() => sqliteSpendLedger({ path: ledgerFile() })).toThrow(/node:sqlite/);
    });
  });

it(`runs exactly one of the two branches above on ${process.version}`, () => {
  // Node 22.13+ and 23.4+ have node:sqlite unflagged; Node 20 has none.
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  const expected = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
  if (major !== 22 || minor >= 13) expect(HAS_SQLITE).toBe(expected);
});
