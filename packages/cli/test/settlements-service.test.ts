/**
 * `wallet settlements` against a service of the test's own that lies: an answer `reconcile` gives
 * no verdict on (another currency, another reference) is an `error` row and never counts towards
 * a day's expected credit, even when it says SETTLED; a settlement is on its Lagos day. And what
 * real statements and disks hold: a shifted row, an impossible date, an Accounting zero, lines ended
 * by CR alone, no space for the report.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { charge, json } from './helpers/lying-service.js';
import { TEST_KEY, wallet } from './helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-settlements-service-'));
// Settled at 23:30 UTC on the 20th: 00:30 on the 21st in Lagos, the day its credit is booked.
const settled = { settlement: { status: 'SETTLED', settledAt: '2026-11-20T23:30:00.000Z' } };

const answers: Record<string, unknown> = {
  ord_true: charge('ord_true', settled),
  ord_dollars: charge('ord_dollars', { ...settled, currency: 'USD' }),
  ord_other: charge('ord_true', settled),
  ord_when: charge('ord_when', { settlement: { status: 'SETTLED', settledAt: 'soon' } }),
  ord_waiting: charge('ord_waiting', { settlement: null }),
};

/** Runs `wallet settlements ARGS` against a loopback service answering from `answers`. */
async function run(ledgerText: string, statement: Buffer | string, ...args: string[]) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const answer = answers[decodeURIComponent(req.url!.split('/').pop()!)];
    // A reference with no answer here is one the service cannot verify now: a 503.
    if (answer === undefined) json(res, 503, { status: 'error', message: 'try later' });
    else json(res, 200, answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ledger = join(dir, `ledger-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(ledger, ledgerText);
  const statementFile = `${ledger}.statement.csv`;
  writeFileSync(statementFile, statement);
  try {
    return await wallet(['--json', 'settlements', ledger, '--statement', statementFile, '--quiet', ...args], {
      env: { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url },
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('wallet settlements against a service of the test’s own', () => {
  it('counts only trusted answers towards their Lagos day: the lies are error rows, the day still matches', async () => {
    const ran = await run(
      'reference,amount,status\nord_true,10000,paid\nord_dollars,10000,paid\nord_other,10000,paid\n',
      'date,credit\n2026-11-21,98.00\n',
    );
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string; charges: number }[];
      problems: { reference: string; verdict: string }[];
    };
    expect(result.days).toEqual([
      expect.objectContaining({ date: '2026-11-21', verdict: 'match', charges: 1 }),
    ]);
    expect(result.problems.map((p) => [p.reference, p.verdict])).toEqual([
      ['ord_dollars', 'error'],
      ['ord_other', 'error'],
    ]);
  });

  it('never confirms a day while a charge could not be verified: it may be the one the bank left out', async () => {
    // The bank credited ord_true alone; ord_down (a 503) may have been settled that day too.
    const ran = await run(
      'reference,amount,status\nord_true,10000,paid\nord_down,10000,paid\n',
      'date,credit\n2026-11-21,98.00\n',
      '--retries',
      '0',
    );
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as {
      report: string;
      days: { date: string; verdict: string; unverified?: number }[];
    };
    expect(result.days).toEqual([expect.objectContaining({ date: '2026-11-21', unverified: 1 })]);
    const rows = parse<Record<string, string>>(readFileSync(result.report, 'utf8'), { columns: true });
    expect(rows.find((r) => r.kind === 'day')!.detail).toContain('1 charge(s) that could not be verified');
  });

  it('names a settled charge it cannot place on a day as an error (exit 1), never leaves it out quietly', async () => {
    const ran = await run(
      'reference,amount,status\nord_true,10000,paid\nord_when,10000,paid\n',
      'date,credit\n2026-11-21,98.00\n',
    );
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string; charges: number }[];
      charges: Record<string, number>;
      problems: { reference: string; verdict: string; detail: string }[];
    };
    expect(result.days).toEqual([
      expect.objectContaining({ date: '2026-11-21', verdict: 'match', charges: 1 }),
    ]);
    expect(result.charges).toMatchObject({ match: 1, error: 1 });
    expect(result.problems).toEqual([
      expect.objectContaining({
        reference: 'ord_when',
        verdict: 'error',
        detail: expect.stringContaining('not summed'),
      }),
    ]);
  });

  it('counts a repeated reference on its first settled row: an unreadable first row does not make the day look unexpected', async () => {
    const ran = await run(
      'reference,amount,status\nord_true,abc,paid\nord_true,10000,paid\n',
      'date,credit\n2026-11-21,98.00\n',
    );
    expect(ran.code).toBe(1); // line 2 is unreadable
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string; charges: number }[];
      problems: { line: number; verdict: string }[];
    };
    expect(result.days).toEqual([
      expect.objectContaining({ date: '2026-11-21', verdict: 'match', charges: 1 }),
    ]);
    expect(result.problems.map((p) => [p.line, p.verdict])).toEqual([[2, 'error']]);
  });

  it('counts a paid charge the ledger repeats once among those not settled yet', async () => {
    const ran = await run(
      'reference,amount,status\nord_true,10000,paid\nord_waiting,10000,paid\nord_waiting,10000,paid\n',
      'date,credit\n2026-11-21,98.00\n',
    );
    expect((JSON.parse(ran.stdout) as { unsettled: number }).unsettled).toBe(1);
  });

  const ONE = 'reference,amount,status\nord_true,10000,paid\n';

  it('names a statement timestamp of a day that does not exist, never rolls it over to another day', async () => {
    const ran = await run(ONE, 'date,credit\n2026-11-21,98.00\n2026-02-30T10:00:00Z,10.00\n');
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string }[];
      statement: { problems: string[] };
    };
    // Date.parse reads 30 February as 2 March: a credit on a day the bank never named.
    expect(result.days.map((d) => [d.date, d.verdict])).toEqual([['2026-11-21', 'match']]);
    expect(result.statement.problems).toEqual([
      expect.stringMatching(/^statement line 3: date '2026-02-30T10:00:00Z' is not/),
    ]);
  });

  it('refuses a statement row with more cells than its header: a comma in a narration moves a debit into the credit column', async () => {
    const ran = await run(
      ONE,
      'date,narration,debit,credit\n2026-11-21,WALLET SETTLEMENT,,98.00\n2026-11-21,TRANSFER TO ADA, LAGOS,50000.00,\n',
    );
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string; credited: number }[];
      statement: { unreadable: number; problems: string[] };
    };
    expect(result.days).toMatchObject([{ date: '2026-11-21', verdict: 'match', credited: 9_800 }]);
    expect(result.statement.unreadable).toBe(1);
    expect(result.statement.problems[0]).toMatch(/^statement line 3: 5 cells, the header has 4/);
  });

  it('never confirms the day of a reversal entered as a negative credit: it is named, and its day is in doubt', async () => {
    const ran = await run(
      ONE,
      'date,narration,credit\n2026-11-21,WALLET SETTLEMENT,98.00\n2026-11-21,REVERSAL WALLET SETTLEMENT,-98.00\n',
    );
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string; uncounted?: number }[];
      statement: { problems: string[] };
    };
    expect(result.days).toEqual([expect.objectContaining({ date: '2026-11-21', uncounted: 1 })]);
    expect(result.statement.problems).toEqual([
      expect.stringMatching(/^statement line 3: credit '-98.00' is negative: a reversal or a debit/),
    ]);
  });

  it("refuses a statement whose lines end in a carriage return alone (Excel for Mac's CSV), never every day missing its credit", async () => {
    const ran = await run(ONE, 'date,narration,credit,balance\r2026-11-21,WALLET SETTLEMENT,98.00,98.00\r');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('ends its lines with a carriage return alone');
  });

  it('refuses a statement of CR-ended lines whose cells are all quoted, never every day missing its credit', async () => {
    const ran = await run(
      ONE,
      '"date","narration","credit","balance"\r"2026-11-21","WALLET SETTLEMENT","98.00","98.00"\r',
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('ends its lines with a carriage return alone');
  });

  it('reads a CRLF statement whose header has a quoted cell broken over two lines, never refused as a Mac file', async () => {
    const ran = await run(
      ONE,
      'date,"narration\r\n(details)",credit,balance\r\n2026-11-21,WALLET SETTLEMENT,98.00,98.00\r\n',
    );
    expect(ran.stderr).not.toContain('carriage return');
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as { days: { date: string; verdict: string; credited: number }[] };
    expect(result.days).toMatchObject([{ date: '2026-11-21', verdict: 'match', credited: 9_800 }]);
  });

  it("skips a debit row whose credit is the Accounting zero with the Naira sign ('₦ -'), as it skips '-'", async () => {
    const ran = await run(
      ONE,
      'date,narration,debit,credit\n2026-11-21,WALLET SETTLEMENT, ₦ -   , ₦ 98.00 \n2026-11-21,TRANSFER TO ADA," ₦ 50,000.00 ",₦-\n',
    );
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string; credited: number }[];
      statement: { unreadable: number };
    };
    expect(result.days).toMatchObject([{ date: '2026-11-21', verdict: 'match', credited: 9_800 }]);
    expect(result.statement.unreadable).toBe(0);
  });

  it("skips a debit row whose credit is Excel's Accounting zero ('-'), as it skips 0.00, never an unreadable row", async () => {
    const ran = await run(
      ONE,
      'date,narration,debit,credit\n2026-11-21,WALLET SETTLEMENT, - ,98.00\n2026-11-21,TRANSFER TO ADA,"50,000.00", -   \n',
    );
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout) as {
      days: { date: string; verdict: string; credited: number }[];
      statement: { unreadable: number };
    };
    expect(result.days).toMatchObject([{ date: '2026-11-21', verdict: 'match', credited: 9_800 }]);
    expect(result.statement.unreadable).toBe(0);
  });

  it.skipIf(!existsSync('/dev/full'))(
    'says why on a disk with no space left for the report (exit 1), never a crash with a stack trace',
    async () => {
      const ran = await run(ONE, 'date,credit\n2026-11-21,98.00\n', '--out', '/dev/full');
      expect(ran.code).toBe(1);
      expect(ran.stderr).toMatch(/^wallet: cannot write \S+: ENOSPC: no space left on device/);
      expect(ran.stderr).not.toContain('    at ');
    },
  );

  it('reads a Windows-1252 statement in Kobo with CRLF when told, and refuses it with the flag to use when not', async () => {
    const ledger = 'reference,amount,status\nord_true,10000,paid\n';
    const statement = Buffer.from(
      'date,narration,credit\r\n2026-11-21,"Règlement Wallet",9800\r\n',
      'latin1',
    );
    const read = await run(
      ledger,
      statement,
      '--statement-encoding',
      'windows-1252',
      '--credit-unit',
      'kobo',
    );
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({
      days: [{ date: '2026-11-21', verdict: 'match', credited: 9_800 }],
    });
    const refused = await run(ledger, statement, '--credit-unit', 'kobo');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--statement-encoding windows-1252');
  });
});
