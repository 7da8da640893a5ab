import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { startSandbox, TEST_KEY, wallet } from './helpers/processes.js';
import { seed, seededSandbox } from './helpers/seed.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-reconcile-'));
const sandbox = seededSandbox([
  { reference: 'ord_paid', amount: 450_000, status: 'SUCCESS' },
  { reference: 'ord_missed', amount: 120_000, status: 'SUCCESS' },
  { reference: 'ord_declined', amount: 99_900, status: 'FAILED' },
  { reference: 'ord_waiting', amount: 70_000, status: 'PENDING_AUTHORIZATION' },
  { reference: 'ord_other', amount: 300_000, status: 'SUCCESS' },
]);
const { env } = sandbox;

const LEDGER =
  'reference,amount,status\r\n' +
  'ord_paid,450000,paid\r\n' +
  'ord_missed,120000,pending\r\n' +
  'ord_declined,99900,paid\r\n' +
  'ord_waiting,70000,pending\r\n' +
  'ord_other,250000,paid\r\n' +
  'ord_nowhere,5000,paid\r\n' +
  ',5000,paid\r\n' +
  'ord_bad,12.5,paid\r\n';

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const report = (path: string) => parse<Record<string, string>>(readFileSync(path, 'utf8'), { columns: true });

describe('wallet reconcile', () => {
  it('writes one report row per ledger row with its verdict, and exits 1 when something needs doing', async () => {
    const ledger = file('ledger.csv', `\uFEFF${LEDGER}`);
    const out = join(dir, 'report.csv');
    const ran = await wallet(['reconcile', ledger, '--out', out], { env });
    expect(ran.code).toBe(1);
    expect(report(out).map((r) => [r.line, r.reference, r.verdict])).toEqual([
      ['2', 'ord_paid', 'match'],
      ['3', 'ord_missed', 'paid_not_recorded'],
      ['4', 'ord_declined', 'recorded_not_paid'],
      ['5', 'ord_waiting', 'still_pending'],
      ['6', 'ord_other', 'amount_mismatch'],
      ['7', 'ord_nowhere', 'unknown_reference'],
      ['8', '', 'error'],
      ['9', 'ord_bad', 'error'],
    ]);
    // Bad rows say their line and what is wrong, in the report and on stderr.
    expect(report(out)[7]?.detail).toMatch(/^line 9: amount '12.5' is not a positive whole number of Kobo/);
    expect(ran.stderr).toContain('line 8: the reference is empty');
    // The summary table: verdicts, counts, what to do; no colour when not a terminal.
    expect(ran.stdout).toMatch(/paid_not_recorded\s+1\s+paid, webhook missed: fulfil these orders/);
    expect(ran.stdout).toMatch(/total\s+8/);
    expect(ran.stdout).not.toContain('\x1b[');
    expect(ran.stderr).not.toContain('\r');
  });

  it('reads Naira exactly with toKobo, from columns named by flags, and writes JSON lines', async () => {
    const ledger = file(
      'naira.csv',
      'order id,total,state\nord_paid,"₦4,500.00",PAID\nord_missed,1200,pending\nord_other,2500.005,paid\n',
    );
    const out = join(dir, 'naira.jsonl');
    const ran = await wallet(
      [
        'reconcile',
        ledger,
        '--out',
        out,
        '--amount-unit',
        'naira',
        '--reference-column',
        'order id',
        '--amount-column',
        'total',
        '--status-column',
        'state',
        '--json',
      ],
      { env },
    );
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.reference, r.verdict, r.expected_amount])).toEqual([
      ['ord_paid', 'match', 450_000],
      ['ord_missed', 'paid_not_recorded', 120_000],
      ['ord_other', 'error', ''],
    ]);
    expect(rows[2]?.detail).toMatch(/line 4: amount '2500.005' is not an exact Naira amount/);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      report: out,
      interrupted: false,
      verdicts: { match: 1, error: 1 },
    });
    expect(ran.code).toBe(1);
  });

  it('exits 0 when every row matches or is still pending', async () => {
    const ledger = file(
      'clean.csv',
      'reference,amount,status\nord_paid,450000,paid\nord_waiting,70000,pending\n',
    );
    const ran = await wallet(['reconcile', ledger, '--quiet'], { env });
    expect(ran.code).toBe(0);
    expect(report(join(dir, 'clean.report.csv')).map((r) => r.verdict)).toEqual(['match', 'still_pending']);
  });

  it('exits 2 with the fix for a missing column, an unknown flag or a missing file', async () => {
    const ledger = file('cols.csv', 'ref,amount,status\nord_paid,450000,paid\n');
    const missing = await wallet(['reconcile', ledger], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("has no column 'reference'");
    expect(missing.stderr).toContain('--reference-column');
    const typo = await wallet(['reconcile', ledger, '--concurency', '4'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--concurrency');
    expect((await wallet(['reconcile', join(dir, 'nope.csv')], { env })).code).toBe(2);
  });

  it("refuses a ledger whose lines end in a carriage return alone (Excel for Mac's CSV), never a run of no rows", async () => {
    // One line to a CSV reader: the header then holds every row, and the run found nothing wrong.
    const ledger = file(
      'mac.csv',
      'reference,amount,status,note\rord_paid,450000,paid,a\rord_other,1,paid,b\r',
    );
    const out = join(dir, 'mac.report.csv');
    const ran = await wallet(['reconcile', ledger, '--out', out], { env });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('ends its lines with a carriage return alone');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a ledger of CR-ended lines whose cells are all quoted (the header then holds no carriage return)', async () => {
    // A quote-all export: after a closing quote the CR is skipped, so the header's cells hold none.
    const ledger = file(
      'mac-quoted.csv',
      '"reference","amount","status","note"\r"ord_paid","450000","paid","a"\r"ord_other","1","paid","b"\r',
    );
    const out = join(dir, 'mac-quoted.report.csv');
    const ran = await wallet(['reconcile', ledger, '--out', out], { env });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('ends its lines with a carriage return alone');
    expect(existsSync(out)).toBe(false);
  });

  it('reads a CRLF ledger whose header has a quoted cell broken over two lines, never refused as a Mac file', async () => {
    const ledger = file(
      'wrapped.csv',
      'reference,"note\r\n(free text)",amount,status\r\nord_paid,a,450000,paid\r\n',
    );
    const ran = await wallet(['reconcile', ledger, '--quiet'], { env });
    expect(ran.stderr).not.toContain('carriage return');
    expect(ran.code).toBe(0);
    expect(report(join(dir, 'wrapped.report.csv')).map((r) => r.verdict)).toEqual(['match']);
  });

  it('ends at once when no key or base URL is set, leaving the last report as it was (not an error row each)', async () => {
    const ledger = file('unset.csv', LEDGER);
    const out = file('unset.report.csv', 'the report of last night\n');
    for (const unset of [{ WALLET_SECRET_KEY: undefined }, { WALLET_BASE_URL: undefined }]) {
      const ran = await wallet(['reconcile', ledger, '--out', out], { env: { ...env, ...unset } });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain(`${Object.keys(unset)[0]}: is not set`);
      expect(readFileSync(out, 'utf8')).toBe('the report of last night\n');
    }
  });

  it('gets every verdict right with faults on (sandbox --fail-rate), retrying each row', async () => {
    const faulty = await startSandbox(['--fail-rate', '0.25', '--seed', '11']);
    try {
      const rows = Array.from({ length: 40 }, (_, i) => ({
        reference: `f_${i}`,
        amount: 1000 + i,
        status: (['SUCCESS', 'FAILED', 'PENDING_AUTHORIZATION'] as const)[i % 3]!,
      }));
      // A control route, never faulted: the data is there at once, and only the run meets faults.
      await seed(faulty.url, rows);
      const status = { SUCCESS: 'paid', FAILED: 'failed', PENDING_AUTHORIZATION: 'pending' } as const;
      const ledger = file(
        'faults.csv',
        `reference,amount,status\n${rows.map((r) => `${r.reference},${r.amount},${status[r.status]}`).join('\n')}\n`,
      );
      const out = join(dir, 'faults.report.csv');
      const ran = await wallet(['reconcile', ledger, '--out', out, '--retries', '8'], {
        env: { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: faulty.url },
      });
      const verdicts = report(out).map((r) => r.verdict);
      expect(verdicts).toEqual(
        rows.map((r) => (r.status === 'PENDING_AUTHORIZATION' ? 'still_pending' : 'match')),
      );
      expect(ran.code).toBe(0);
    } finally {
      await faulty.stop();
    }
  });
});
