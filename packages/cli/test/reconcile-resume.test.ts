/**
 * `--resume` carries on only the report of the same ledger, verifies its `error` rows again, and
 * handles a torn last record of any shape; after SIGKILL it ends on the report an uninterrupted
 * run writes, byte for byte. The progress line after a resume shows this run's rate and ETA and
 * the whole report's counts.
 */
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { progressLine } from '../src/reconcile/progress.js';
import { wallet } from './helpers/processes.js';
import { dir, ledger, reconcile, ROWS, rows, service, useResumeService } from './helpers/resume-service.js';

const env = service.env;
useResumeService();

describe('wallet reconcile --resume', () => {
  it('verifies the error rows again, in place, and copies the others byte for byte', async () => {
    const file = ledger('errors.csv', rows(ROWS));
    const out = join(dir, 'errors.report.csv');
    service.failing = new Set(['ord_3', 'ord_10', 'ord_59']);
    const first = await reconcile(file, out);
    expect(first.code).toBe(1);
    const before = readFileSync(out, 'utf8').split('\n');
    expect(before.filter((l) => l.includes(',error,'))).toHaveLength(3);
    service.failing = new Set();
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
