/**
 * `--resume` carries on only a report made against the same key mode and service (`REPORT.origin`
 * beside it, never the key): a report whose rows came from test mode is never carried on with a
 * live key, whatever fails on the way (a report that cannot be written, a full disk, a descriptor).
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv, TEST_KEY, wallet } from './helpers/processes.js';
import { dir, ledger, reconcile, ROWS, rows, service, useResumeService } from './helpers/resume-service.js';

const env = service.env;
useResumeService();

describe('wallet reconcile --resume, and who made the report', () => {
  it('refuses a report made against another mode or service, writes nothing, and never keeps the key', async () => {
    const file = ledger('origin.csv', rows(ROWS));
    const out = join(dir, 'origin.report.csv');
    service.failing = new Set(['ord_7']);
    await reconcile(file, out);
    service.failing = new Set();
    const report = readFileSync(out, 'utf8');
    // The same service by another name, and the same run with a live key: a test-mode row beside live ones.
    const elsewhere = { ...env, WALLET_BASE_URL: env.WALLET_BASE_URL!.replace('127.0.0.1', 'localhost') };
    const live = { ...env, WALLET_SECRET_KEY: TEST_KEY.replace('sk_test_', 'sk_live_') };
    for (const [other, said] of [
      [elsewhere, 'http://localhost:'],
      [live, 'live mode'],
    ] as const) {
      const resumed = await wallet(['reconcile', file, '--out', out, '--quiet', '--resume'], { env: other });
      expect(resumed.code, resumed.stderr).toBe(2);
      expect(resumed.stderr).toContain('Not resumed');
      expect(resumed.stderr).toContain(said);
      expect(readFileSync(out, 'utf8')).toBe(report);
    }
    const secret = TEST_KEY.slice('sk_test_'.length);
    for (const name of readdirSync(dir).filter((n) => n.startsWith('origin.report')))
      expect(readFileSync(join(dir, name), 'utf8'), name).not.toContain(secret);
    const same = await reconcile(file, out, '--resume');
    expect(same.code, same.stderr).toBe(0);
  });

  it('resumes a report that holds no row yet with a key of another mode: a refused key stopped it, and said to fix the key and resume', async () => {
    const file = ledger('refused.csv', rows(5));
    const out = join(dir, 'refused.report.csv');
    service.refusing = true;
    const stopped = await reconcile(file, out);
    service.refusing = false;
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stderr).toContain('fix the key and run again with --resume');
    // The test key was the mistake: nothing was verified with it, so nothing would be mixed.
    const live = { ...env, WALLET_SECRET_KEY: TEST_KEY.replace('sk_test_', 'sk_live_') };
    const resumed = await wallet(['reconcile', file, '--out', out, '--quiet', '--resume'], { env: live });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(
      readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => l.includes(',match,')),
    ).toHaveLength(5);
    expect(JSON.parse(readFileSync(`${out}.origin`, 'utf8'))).toMatchObject({ mode: 'live' });
  });

  it.skipIf(process.platform === 'win32')(
    'leaves the origin whole when a resume cannot write it (a full disk), so the report still resumes once there is room',
    async () => {
      const file = ledger('room.csv', rows(ROWS));
      const out = join(dir, 'room.report.csv');
      service.failing = new Set(['ord_7']);
      await reconcile(file, out);
      service.failing = new Set();
      const origin = readFileSync(`${out}.origin`, 'utf8');
      // No file may grow (ulimit -f 0): as a full disk, the origin's write fails after its file is opened.
      const full = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const command = `ulimit -f 0; exec "${process.execPath}" "${CLI_BIN}" reconcile "${file}" --out "${out}" --quiet --retries 0 --resume`;
        const child = spawn('sh', ['-c', command], {
          env: cleanEnv(env),
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(full.code, full.stderr).toBe(1);
      expect(readFileSync(`${out}.origin`, 'utf8')).toBe(origin);
      const resumed = await reconcile(file, out, '--resume');
      expect(resumed.code, resumed.stderr).toBe(0);
    },
  );

  it.skipIf(!existsSync('/dev/fd'))(
    'writes the report to a descriptor the shell opened (--out /dev/fd/3 3>FILE), never refused for its origin file',
    async () => {
      const file = ledger('descriptor.csv', rows(3));
      const out = join(dir, 'descriptor.report.csv');
      // stat sees the file behind /dev/fd/3, but /dev/fd/3.origin cannot be made (as root, /dev/stdout.origin can).
      const fd = openSync(out, 'w');
      const ran = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI_BIN, 'reconcile', file, '--out', '/dev/fd/3', '--quiet'], {
          env: cleanEnv(env),
          stdio: ['ignore', 'ignore', 'pipe', fd],
        });
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      closeSync(fd);
      expect(ran.code, ran.stderr).toBe(0);
      expect(
        readFileSync(out, 'utf8')
          .split('\n')
          .filter((l) => l.includes(',match,')),
      ).toHaveLength(3);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'keeps the origin of the rows a report still holds when a run cannot replace it, so a resume with another key is still refused',
    async () => {
      const shared = mkdtempSync(join(tmpdir(), 'wallet-cli-kept-'));
      const file = join(shared, 'kept.csv');
      writeFileSync(file, `reference,amount,status\n${rows(5)}\n`);
      const out = join(shared, 'kept.report.csv');
      // Root writes any file: as root the CLI runs without the capabilities that let it (setpriv),
      // still as root, so it reads a clone another user could not (a fresh machine's 0700 home).
      const root = process.getuid?.() === 0;
      const command = root ? 'setpriv' : process.execPath;
      const prefix = root ? ['--inh-caps=-all', '--bounding-set=-all', '--', process.execPath] : [];
      const as = (key: string, ...more: string[]) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(
            command,
            [...prefix, CLI_BIN, 'reconcile', file, '--out', out, '--quiet', ...more],
            { env: cleanEnv({ ...env, WALLET_SECRET_KEY: key }), stdio: ['ignore', 'ignore', 'pipe'] },
          );
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
          child.on('close', (code) => resolve({ code, stderr }));
        });
      const live = TEST_KEY.replace('sk_test_', 'sk_live_');
      expect((await as(TEST_KEY)).code).toBe(0);
      const report = readFileSync(out, 'utf8');
      // The report held open elsewhere (a spreadsheet locks it on Windows): a live run cannot replace it.
      chmodSync(out, 0o444);
      const blocked = await as(live);
      expect(blocked.code, blocked.stderr).toBe(1);
      expect(blocked.stderr).toContain(`cannot write ${out}`);
      chmodSync(out, 0o644);
      expect(readFileSync(out, 'utf8')).toBe(report);
      // Its rows are still test mode's: a live resume would put live rows beside them.
      const resumed = await as(live, '--resume');
      expect(resumed.code, resumed.stderr).toBe(2);
      expect(resumed.stderr).toContain('was made against test mode');
      expect(readFileSync(out, 'utf8')).toBe(report);
    },
  );

  it('refuses a report whose origin file would be the ledger (a ledger named REPORT.origin), writing nothing over it', async () => {
    const file = ledger('mine.origin', rows(3));
    const text = readFileSync(file, 'utf8');
    const ran = await reconcile(file, join(dir, 'mine'));
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('the ledger itself');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(join(dir, 'mine'))).toBe(false);
  });
});
