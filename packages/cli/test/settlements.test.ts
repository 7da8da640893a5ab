/**
 * `wallet settlements` against a sandbox on the manual clock: a few hundred paid charges over four
 * Lagos days (two either side of Lagos midnight), settled by moving the clock, and a bank
 * statement made from them with one day short, one credit missing and one credit unexpected. The
 * report names exactly those days, and exactly the charges behind them.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { createSandbox } from '@wallet/node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TEST_KEY, wallet } from './helpers/processes.js';
import {
  expectedByDay,
  ledgerCsv,
  nairaText,
  paidCharges,
  statementCsv,
  type PaidCharge,
} from './helpers/settlement-days.js';

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-settlements-'));
const sandbox = createSandbox({ clock: 'manual', now: () => new Date('2026-11-20T00:00:00Z') });
const charges = paidCharges('2026-11-16', 4, 75);
const expected = expectedByDay(charges);
const env: Record<string, string> = { WALLET_SECRET_KEY: TEST_KEY };
let close: () => Promise<void>;

beforeAll(async () => {
  const { url, close: stop } = await sandbox.listen();
  close = stop;
  env.WALLET_BASE_URL = url;
  sandbox.seed(
    charges.map(({ reference, amount, status, paidAt }) => ({ reference, amount, status, paidAt })),
  );
  // Paid on the 10th, settled on the 11th: one charged a fee the fee rule does not give.
  sandbox.seed([
    { reference: 'fee_ok', amount: 500_000, status: 'SUCCESS', paidAt: '2026-11-10T12:00:00Z' },
    { reference: 'fee_off', amount: 500_000, status: 'SUCCESS', paidAt: '2026-11-10T12:00:00Z', fee: 12_000 },
  ]);
  // The last charges settle on the 20th at 10:00 Lagos (09:00 UTC): move the clock past it.
  sandbox.advance(DAY);
});
afterAll(async () => {
  await close();
  await sandbox.close();
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const days = [...expected.keys()].sort();
const [short, missing, split, last] = days as [string, string, string, string];
const UNEXPECTED = '2026-11-22';
const behind = (date: string): string[] =>
  charges.filter((c: PaidCharge) => c.settledOn === date).map((c) => c.reference);

/** The bank statement: the first day short by ₦12.34, the second never credited, one stray credit. */
function statement(): string {
  return file(
    'statement.csv',
    statementCsv([
      [`${short}T09:05:00Z`, 'WALLET SETTLEMENT', '', nairaText(expected.get(short)! - 1_234)],
      [missing, 'TRANSFER TO SUPPLIER', '₦50,000.00', ''],
      // One day credited in two parts: a local time, and 23:30 UTC, which is 00:30 Lagos next day...
      [`${split} 10:00`, 'WALLET SETTLEMENT 1/2', '', nairaText(expected.get(split)! - 100_000)],
      // ...so the second part is dated the day before in UTC: it is still the split day in Lagos.
      [`${days[1]}T23:30:00Z`, 'WALLET SETTLEMENT 2/2', '', nairaText(100_000)],
      [last, 'WALLET SETTLEMENT', '', nairaText(expected.get(last)!)],
      [UNEXPECTED, 'REVERSAL', '', '₦1,000.00'],
    ]),
  );
}

describe('wallet settlements', () => {
  it('spreads the charges over four settlement days, the midnight pair on two of them', () => {
    expect(days).toEqual(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']);
    expect(charges.length).toBe(302);
    expect(behind(short)).toContain('ord_late'); // 23:30 Lagos on the 16th
    expect(behind(missing)).toContain('ord_early'); // 00:30 Lagos on the 17th, 23:30 UTC on the 16th
  });

  it('names exactly the short, missing and unexpected days, and the charges behind them', async () => {
    const ledger = file('ledger.csv', ledgerCsv(charges));
    const out = join(dir, 'report.csv');
    const ran = await wallet(['--json', 'settlements', ledger, '--statement', statement(), '--out', out], {
      env,
    });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as {
      days: {
        date: string;
        verdict: string;
        net: number;
        credited: number;
        difference: number;
        references?: string[];
      }[];
      charges: Record<string, number>;
    };
    const verdicts = Object.fromEntries(result.days.map((d) => [d.date, d.verdict]));
    expect(verdicts).toEqual({
      [short]: 'short',
      [missing]: 'missing_credit',
      [split]: 'match',
      [last]: 'match',
      [UNEXPECTED]: 'unexpected_credit',
    });
    const byDate = new Map(result.days.map((d) => [d.date, d]));
    expect(byDate.get(short)!.difference).toBe(-1_234);
    expect(byDate.get(missing)!.credited).toBe(0);
    expect(byDate.get(short)!.references!.sort()).toEqual(behind(short).sort());
    expect(byDate.get(missing)!.references!.sort()).toEqual(behind(missing).sort());
    expect(byDate.get(split)!.references).toBeUndefined();
    expect(byDate.get(UNEXPECTED)).toMatchObject({ credited: 100_000, net: 0, references: [] });
    expect(result.charges.match).toBe(charges.length);

    const rows = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    const listed = rows.filter((r) => r.kind === 'charge').map((r) => r.reference);
    expect(listed.sort()).toEqual([...behind(short), ...behind(missing)].sort());
    const dayRow = rows.find((r) => r.kind === 'day' && r.date === short)!;
    expect(dayRow.difference_ngn).toBe('-12.34');
  });
});

describe('wallet settlements, each charge and each input', () => {
  const FEE_LEDGER = 'reference,amount,status\nfee_ok,500000,paid\n';
  // The service settles 490,000 + 488,000 Kobo on the 11th; the bank credits exactly that.
  const FEE_STATEMENT = 'date,credit\n2026-11-11,"₦9,780.00"\n';

  it('exits 0 when every day and every charge matches, with a summary a person reads', async () => {
    const ran = await wallet(
      [
        'settlements',
        file('ok.csv', FEE_LEDGER),
        '--statement',
        file('ok-st.csv', 'date,credit\n2026-11-11,4900.00\n'),
      ],
      { env },
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/2026-11-11\s+match\s+₦4,900\.00\s+₦4,900\.00\s+₦0\.00\s+1/);
    expect(ran.stdout).toContain('Charges: match 1');
  });

  it('checks the fee rule per charge: a day that matches still names the charge off the rule (exit 1)', async () => {
    const ledger = file('fee.csv', `${FEE_LEDGER}fee_off,500000,paid\n`);
    const out = join(dir, 'fee-report.csv');
    const ran = await wallet(
      ['settlements', ledger, '--statement', file('fee-st.csv', FEE_STATEMENT), '--out', out],
      {
        env,
      },
    );
    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(/2026-11-11\s+match/);
    expect(ran.stdout).toContain('line 3 fee_off fee_mismatch: fee 12000 Kobo, the fee rule gives 10000');
    const rows = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    expect(
      rows.filter((r) => r.kind === 'charge').map((r) => [r.reference, r.charge_verdict, r.fee_ngn]),
    ).toEqual([['fee_off', 'fee_mismatch', '120.00']]);
  });

  it('keeps ledger text inert in the report and escaped on the terminal', async () => {
    const ledger = file(
      'hostile.csv',
      `${FEE_LEDGER}"=HYPERLINK(""http://x"")",1000,paid\n"ord_\u001b[2J",1000,paid\n`,
    );
    const out = join(dir, 'hostile-report.csv');
    const ran = await wallet(
      [
        'settlements',
        ledger,
        '--statement',
        file('h-st.csv', 'date,credit\n2026-11-11,4900.00\n'),
        '--out',
        out,
      ],
      { env },
    );
    expect(ran.code).toBe(1);
    expect(ran.stdout).not.toContain('\u001b');
    expect(ran.stdout).toContain('\\x1b[2J');
    expect(ran.stdout).toContain("'=HYPERLINK");
    const refs = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true }).map(
      (r) => r.reference,
    );
    expect(refs).toContain('\'=HYPERLINK("http://x")');
  });

  it('ends at once on a refused key (exit 1, the cause said, no report)', async () => {
    const out = join(dir, 'refused.csv');
    const ran = await wallet(
      [
        'settlements',
        file('r.csv', FEE_LEDGER),
        '--statement',
        file('r-st.csv', FEE_STATEMENT),
        '--out',
        out,
      ],
      {
        env: { ...env, WALLET_SECRET_KEY: 'sk_live_not_for_the_sandbox' },
      },
    );
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('401');
    expect(existsSync(out)).toBe(false);
  });

  it('counts a repeated reference once: verified twice, settled once', async () => {
    const ledger = file('twice.csv', `${FEE_LEDGER}fee_ok,500000,paid\n`);
    const ran = await wallet(
      ['--json', 'settlements', ledger, '--statement', file('t-st.csv', 'date,credit\n2026-11-11,4900.00\n')],
      { env },
    );
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      days: [{ verdict: 'match', charges: 1 }],
      charges: { match: 2 },
    });
  });

  it('names a statement row it cannot read, with its line, and exits 1', async () => {
    const statement = file('bad-st.csv', 'date,credit\n2026-11-11,4900.00\n11/11/2026,10.00\n');
    const ran = await wallet(['settlements', file('b.csv', FEE_LEDGER), '--statement', statement], { env });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain("statement line 3: date '11/11/2026' is not YYYY-MM-DD");
  });

  it('says how many statement rows it could not read when there are more than it names', async () => {
    const bad = Array.from({ length: 60 }, (_, i) => `${i + 1}/11/2026,10.00`).join('\n');
    const statement = file('many-st.csv', `date,credit\n2026-11-11,4900.00\n${bad}\n`);
    const ran = await wallet(['settlements', file('m.csv', FEE_LEDGER), '--statement', statement], { env });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('statement line 52:');
    expect(ran.stdout).not.toContain('statement line 53:');
    expect(ran.stdout).toContain('60 statement rows could not be read: the first 50 are above');
  });

  it.each([
    [['--out', 'STATEMENT'], 'is the statement itself'],
    [['--time-zone', 'Mars/Olympus'], 'not an IANA time zone'],
    [['--credit-column', 'amount_in'], "has no column 'amount_in'"],
    // Written only once every charge is verified: a typo in its folder must not cost the whole run.
    [['--out', join(tmpdir(), 'no-such-folder', 'report.csv')], 'does not exist'],
    [['--out', tmpdir()], 'is a directory'],
    [['--statement', tmpdir()], 'is a directory'],
  ])('refuses %j before anything is sent or written (exit 2)', async (args, said) => {
    const statement = file('u-st.csv', FEE_STATEMENT);
    const before = sandbox.requests.length;
    const ran = await wallet(
      [
        'settlements',
        file('u.csv', FEE_LEDGER),
        '--statement',
        statement,
        ...args.map((a) => (a === 'STATEMENT' ? statement : a)),
      ],
      { env },
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(said);
    expect(sandbox.requests.length).toBe(before);
    expect(readFileSync(statement, 'utf8')).toBe(FEE_STATEMENT);
  });

  it('reads statement dates in the time zone asked: 23:30 UTC is the next day in Lagos, the same day in UTC', async () => {
    const statement = file('tz-st.csv', 'date,credit\n2026-11-10T23:30:00Z,4900.00\n');
    const args = ['--json', 'settlements', file('tz.csv', FEE_LEDGER), '--statement', statement];
    const lagos = JSON.parse((await wallet(args, { env })).stdout) as {
      days: { date: string; verdict: string }[];
    };
    expect(lagos.days.map((d) => [d.date, d.verdict])).toEqual([['2026-11-11', 'match']]);
    const utc = JSON.parse((await wallet([...args, '--time-zone', 'UTC'], { env })).stdout) as typeof lagos;
    expect(utc.days.map((d) => [d.date, d.verdict])).toEqual([
      ['2026-11-10', 'unexpected_credit'],
      ['2026-11-11', 'missing_credit'],
    ]);
  });
});
