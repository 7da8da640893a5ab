/**
 * `--resume` carries on only the report of the same ledger, verifies its `error` rows again, and
 * handles a torn last record of any shape; after SIGKILL it ends on the report an uninterrupted
 * run writes, byte for byte. The progress line after a resume shows this run's rate and ETA and
 * the whole report's counts.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  appendFileSync,
  chmodSync,
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  existsSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { progressLine } from '../src/reconcile/progress.js';
import { charge, json } from './helpers/lying-service.js';
import { CLI_BIN, cleanEnv, TEST_KEY, wallet } from './helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-resume-'));
const ROWS = 60;
const rows = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `ord_${i + from},10000,paid`).join('\n');
let failing = new Set<string>();
let refusing = false; // every key refused (401)
let server: Server;
let env: Record<string, string>;
beforeAll(async () => {
  // Answers every reference as a paid charge, but 500 for those in `failing`; slow enough to kill mid-run.
  server = createServer((req, res: ServerResponse) => {
    const reference = decodeURIComponent(req.url!.split('/').pop()!);
    setTimeout(() => {
      if (refusing) json(res, 401, { status: 'error', message: 'Invalid API key' });
      else if (failing.has(reference)) json(res, 500, { status: 'error', message: 'try later' });
      else json(res, 200, charge(reference));
    }, 5);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  env = {
    WALLET_SECRET_KEY: TEST_KEY,
    WALLET_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function ledger(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, `reference,amount,status\n${text}\n`);
  return path;
}
const reconcile = (file: string, out: string, ...more: string[]) =>
  wallet(['reconcile', file, '--out', out, '--quiet', '--retries', '0', ...more], { env });

describe('wallet reconcile --resume', () => {
  it('verifies the error rows again, in place, and copies the others byte for byte', async () => {
    const file = ledger('errors.csv', rows(ROWS));
    const out = join(dir, 'errors.report.csv');
    failing = new Set(['ord_3', 'ord_10', 'ord_59']);
    const first = await reconcile(file, out);
    expect(first.code).toBe(1);
    const before = readFileSync(out, 'utf8').split('\n');
    expect(before.filter((l) => l.includes(',error,'))).toHaveLength(3);
    failing = new Set();
    const second = await reconcile(file, out, '--resume');
    expect(second.code).toBe(0);
    const after = readFileSync(out, 'utf8').split('\n');
    expect(after.filter((l) => l.includes(',error,'))).toEqual([]);
    expect(after.length).toBe(before.length);
    // Every row that was not an error is the same bytes, in the same place.
    before.forEach((l, i) => {
      if (!l.includes(',error,')) expect(after[i]).toBe(l);
    });
    expect(existsSync(`${out}.resume`)).toBe(false);
  });

  it('refuses a ledger that changed above the rows done, or another ledger, and writes nothing', async () => {
    const file = ledger('changing.csv', rows(ROWS));
    const out = join(dir, 'changing.report.csv');
    await reconcile(file, out);
    const lines = readFileSync(out, 'utf8').split('\n');
    writeFileSync(out, `${lines.slice(0, 21).join('\n')}\n`); // 20 rows done
    const report = readFileSync(out, 'utf8');
    // A row inserted at line 6: the ledger under the report is not the one it was made from.
    writeFileSync(file, `reference,amount,status\n${rows(4)}\nord_new,500,paid\n${rows(ROWS - 4, 4)}\n`);
    const changed = await reconcile(file, out, '--resume');
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain(
      'Not resumed: the ledger changed at line 6, above the 20 rows the report already holds',
    );
    expect(readFileSync(out, 'utf8')).toBe(report);
    const other = await reconcile(ledger('other.csv', rows(ROWS, 1000)), out, '--resume');
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('was made from another ledger');
    const shorter = await reconcile(ledger('short.csv', rows(10)), out, '--resume');
    expect(shorter.code).toBe(2);
    expect(shorter.stderr).toContain('the report holds 20 rows, the ledger only 10');
    expect(readFileSync(out, 'utf8')).toBe(report);
  });

  it('refuses a report made against another mode or service, writes nothing, and never keeps the key', async () => {
    const file = ledger('origin.csv', rows(ROWS));
    const out = join(dir, 'origin.report.csv');
    failing = new Set(['ord_7']);
    await reconcile(file, out);
    failing = new Set();
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
    refusing = true;
    const stopped = await reconcile(file, out);
    refusing = false;
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
      failing = new Set(['ord_7']);
      await reconcile(file, out);
      failing = new Set();
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

  it('cuts a torn last record, a quoted field with a line break included, and carries on', async () => {
    const file = ledger('torn.csv', rows(ROWS));
    const out = join(dir, 'torn.report.csv');
    await reconcile(file, out);
    const whole = readFileSync(out, 'utf8');
    const lines = whole.split('\n');
    for (const tail of ['12,ord_11,error,10000,paid,,,,,"the service\nsaid', '12,ord_11,mat', '12,"ord_']) {
      writeFileSync(out, `${lines.slice(0, 11).join('\n')}\n${tail}`);
      const resumed = await reconcile(file, out, '--resume');
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(whole);
    }
  });

  it('cuts a character cut short at the very end of the report, and carries on', async () => {
    const file = ledger('torn-char.csv', rows(ROWS));
    const out = join(dir, 'torn-char.report.csv');
    await reconcile(file, out);
    const whole = readFileSync(out);
    const rowsDone = Buffer.from(`${whole.toString().split('\n').slice(0, 12).join('\n')}\n`);
    writeFileSync(out, Buffer.concat([rowsDone, Buffer.from('₦').subarray(0, 2)]));
    const resumed = await reconcile(file, out, '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(out)).toEqual(whole);
  });

  it('refuses a report another program saved again or damaged, and leaves it as it was', async () => {
    const file = ledger('damaged.csv', rows(ROWS));
    const out = join(dir, 'damaged.report.csv');
    await reconcile(file, out);
    const whole = readFileSync(out);
    const badByte = Buffer.from(whole);
    badByte[whole.indexOf('ord_5,') + 4] = 0xff;
    const cases: [string, Buffer, string][] = [
      [out, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), whole]), 'byte-order mark'],
      [out, badByte, 'bytes that are not UTF-8'],
      [out, Buffer.from(`notes,of,mine\n${whole.toString().split('\n').slice(1).join('\n')}`), 'first line'],
      [join(dir, 'notes.jsonl'), Buffer.from('{"note":"mine"}\n'), 'not a report row'],
    ];
    for (const [report, bytes, why] of cases) {
      writeFileSync(report, bytes);
      const resumed = await reconcile(file, report, '--resume');
      expect(resumed.code, why).toBe(2);
      expect(resumed.stderr).toContain(why);
      expect(readFileSync(report), why).toEqual(bytes);
    }
  });

  it('after SIGKILL mid-run, resumes to the same bytes an uninterrupted run writes', async () => {
    const file = ledger('kill.csv', rows(400));
    const clean = join(dir, 'clean.report.csv');
    await reconcile(file, clean, '--concurrency', '2');
    const out = join(dir, 'kill.report.csv');
    const killed = await wallet(['reconcile', file, '--out', out, '--quiet', '--concurrency', '2'], {
      env,
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (existsSync(out) && statSync(out).size > 3000) {
            clearInterval(timer);
            child.kill('SIGKILL');
          }
        }, 2);
      },
    });
    expect(killed.code).toBe(null);
    // Whatever the kill left, even half a row, a resume completes it.
    appendFileSync(out, '150,ord_1');
    const resumed = await reconcile(file, out, '--resume');
    expect(resumed.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(clean, 'utf8'));
  });
});

describe('the progress line after a resume', () => {
  it("shows this run's rate and ETA, and the whole report's rows and counts", () => {
    const line = progressLine(
      { done: 10, total: 50, verdicts: { match: 8, error: 2 } as never },
      2_000,
      100,
      { done: 50, verdicts: { match: 45, still_pending: 5 } },
    );
    // 60 of 100 rows in the report; this run did 10 in 2 s: 5/s, 40 left: 8 s.
    expect(line).toContain(' 60/100 ');
    expect(line).toContain(' 5/s ');
    expect(line).toContain('ETA 0:08');
    expect(line).toContain('match 53 · still_pending 5 · error 2');
  });
});
