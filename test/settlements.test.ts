/**
 * `summarizeSettlements`: the bank credit to expect each day, grouped by the merchant's calendar
 * day (Lagos by default, UTC+1), from verify results.
 */
import { describe, expect, it } from 'vitest';

import { Wallet, isValidationError, summarizeSettlements } from '@wallet/node';
import type { Transaction } from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';

function settled(reference: string, amount: number, settledAt: string, fee = Math.min(amount / 50, 200_000)) {
  return {
    reference,
    amount,
    currency: 'NGN',
    fee,
    netAmount: amount - fee,
    status: 'SUCCESS',
    channel: 'wallet_push',
    customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
    settlement: { status: 'SETTLED', settledAt },
    paidAt: settledAt,
  } satisfies Transaction;
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('summarizeSettlements', () => {
  it('groups by the Lagos day: 22:59:59 UTC is still that day, 23:00 UTC is the next', () => {
    const days = summarizeSettlements([
      settled('late', 100_000, '2026-03-02T22:59:59.999Z'),
      settled('midnight', 200_000, '2026-03-02T23:00:00.000Z'),
      settled('morning', 300_000, '2026-03-03T09:00:00.000Z'),
      settled('early', 50_000, '2026-03-01T23:30:00.000Z'),
    ]);
    expect(days).toEqual([
      {
        date: '2026-03-02',
        charges: 2,
        references: ['late', 'early'],
        amount: 150_000,
        fees: 3_000,
        net: 147_000,
      },
      {
        date: '2026-03-03',
        charges: 2,
        references: ['midnight', 'morning'],
        amount: 500_000,
        fees: 10_000,
        net: 490_000,
      },
    ]);
  });

  it('counts only SETTLED charges, and sums the fees and net amounts the service reported', () => {
    const capped = settled('big', 50_000_000, '2026-03-03T09:00:00.000Z', 200_000);
    const odd = { ...settled('odd', 100_000, '2026-03-03T09:00:00.000Z'), fee: 7, netAmount: 99_990 };
    const days = summarizeSettlements([
      capped,
      odd,
      { ...settled('unsettled', 100_000, '2026-03-03T09:00:00.000Z'), settlement: null },
      { ...settled('failed', 100_000, '2026-03-03T09:00:00.000Z'), status: 'FAILED' },
      { ...settled('pending', 100_000, '2026-03-03T09:00:00.000Z'), status: 'PENDING_AUTHORIZATION' },
    ]);
    expect(days).toEqual([
      {
        date: '2026-03-03',
        charges: 2,
        references: ['big', 'odd'],
        amount: 50_100_000,
        fees: 200_007,
        net: 49_899_990,
      },
    ]);
    expect(summarizeSettlements([])).toEqual([]);
  });

  it('uses the time zone asked for', () => {
    const charge = settled('late', 100_000, '2026-03-02T23:30:00.000Z');
    expect(summarizeSettlements([charge], { timeZone: 'UTC' })[0]?.date).toBe('2026-03-02');
    expect(summarizeSettlements([charge])[0]?.date).toBe('2026-03-03');
    expect(summarizeSettlements([charge], { timeZone: 'America/New_York' })[0]?.date).toBe('2026-03-02');
  });

  it('refuses an unknown time zone or option with a ValidationError, before summing anything', () => {
    const error = thrown(() => summarizeSettlements([], { timeZone: 'Africa/Lagoss' }));
    expect(isValidationError(error)).toBe(true);
    expect(error).toMatchObject({
      issues: [{ path: 'options.timeZone', message: expect.stringContaining("got 'Africa/Lagoss'") }],
    });
    const typo = thrown(() => summarizeSettlements([], { timezone: 'UTC' } as never));
    expect(typo).toMatchObject({
      issues: [{ path: 'options.timezone', message: expect.stringMatching(/timeZone/) }],
    });
  });

  it('reads every form of the time zone option as before: odd case, undefined, empty, not a string', () => {
    const charge = settled('late', 100_000, '2026-03-02T23:30:00.000Z');
    // Intl reads a zone's name in any case; undefined is the option left out (Lagos).
    expect(summarizeSettlements([charge], { timeZone: 'africa/lagos' })[0]?.date).toBe('2026-03-03');
    expect(summarizeSettlements([charge], { timeZone: 'utc' })[0]?.date).toBe('2026-03-02');
    expect(summarizeSettlements([charge], { timeZone: undefined } as never)[0]?.date).toBe('2026-03-03');
    const zone = "must be an IANA time zone such as 'Africa/Lagos' (got '')";
    expect(thrown(() => summarizeSettlements([charge], { timeZone: '' }))).toMatchObject({
      issues: [{ path: 'options.timeZone', message: zone }],
    });
    // One issue for a zone that is no string: its type, not a second complaint from Intl.
    for (const timeZone of [null, 1, { name: 'UTC' }]) {
      expect(thrown(() => summarizeSettlements([charge], { timeZone } as never))).toMatchObject({
        issues: [{ path: 'options.timeZone', message: 'must be a string' }],
      });
    }
    // An unknown zone beside an unknown option: the option named, the zone not tried.
    const both = thrown(() => summarizeSettlements([charge], { timeZone: 'Nope/Zone', tz: 1 } as never));
    expect((both as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([
      'options.tz',
    ]);
  });

  it('names every settled charge it cannot sum: not whole Kobo, or no time', () => {
    const error = thrown(() =>
      summarizeSettlements([
        settled('fine', 100_000, '2026-03-03T09:00:00.000Z'),
        { ...settled('half', 100_000, '2026-03-03T09:00:00.000Z'), fee: 0.5 },
        // A lying answer: the types promise a paid charge its net amount, the function checks anyway.
        { ...settled('when', 100_000, 'yesterday'), netAmount: null } as unknown as Transaction,
      ]),
    );
    expect(isValidationError(error)).toBe(true);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      '1.fee',
      '2.netAmount',
      '2.settlement.settledAt',
    ]);
  });

  it('refuses a settledAt that names no instant: no offset (its day would be the machine’s zone), no such day', () => {
    const error = thrown(() =>
      summarizeSettlements([
        settled('fine', 100_000, '2026-03-02T23:30:00+01:00'),
        // 23:30 read in the machine's zone: the 3rd in Lagos on a UTC server, the 2nd on a Lagos one.
        settled('local', 100_000, '2026-03-02T23:30:00'),
        settled('spaced', 100_000, '2026-03-02 23:30:00'),
        settled('mail', 100_000, 'Mon, 02 Mar 2026 23:30:00'),
        // Date.parse rolls 30 February over to 2 March.
        settled('rolled', 100_000, '2026-02-30T10:00:00Z'),
      ]),
    );
    expect(isValidationError(error)).toBe(true);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      '1.settlement.settledAt',
      '2.settlement.settledAt',
      '3.settlement.settledAt',
      '4.settlement.settledAt',
    ]);
    expect(summarizeSettlements([settled('fine', 100_000, '2026-03-02T23:30:00.000+01:00')])).toMatchObject([
      { date: '2026-03-02', references: ['fine'] },
    ]);
  });

  it('refuses a settled charge in another currency: its amounts are not Kobo of the Naira credit', () => {
    const error = thrown(() =>
      summarizeSettlements([
        settled('naira', 100_000, '2026-03-03T09:00:00.000Z'),
        { ...settled('dollars', 100_000, '2026-03-03T09:00:00.000Z'), currency: 'USD' },
      ]),
    );
    expect(isValidationError(error)).toBe(true);
    expect(error).toMatchObject({
      issues: [{ path: '1.currency', message: expect.stringContaining('"USD"') }],
    });
  });

  it('counts a charge listed twice once (a ledger that repeats a reference), and refuses two answers that differ', () => {
    const once = settled('ord_1', 100_000, '2026-03-03T09:00:00.000Z');
    const [day] = summarizeSettlements([once, settled('ord_2', 50_000, '2026-03-03T10:00:00.000Z'), once]);
    expect(day).toMatchObject({ charges: 2, references: ['ord_1', 'ord_2'] });
    expect(day!.amount).toBe(150_000);
    const error = thrown(() =>
      summarizeSettlements([once, settled('ord_1', 100_000, '2026-03-04T09:00:00.000Z')]),
    );
    expect(error).toMatchObject({
      issues: [{ path: '1.reference', message: expect.stringContaining('"ord_1" again') }],
    });
  });

  it('counts a charge listed twice once when its settledAt names the same instant in other words', () => {
    // A stored answer written back by Date#toISOString, beside the service's own text of the time.
    const fresh = settled('ord_1', 100_000, '2026-03-03T10:00:00+01:00');
    const stored = { ...fresh, settlement: { status: 'SETTLED', settledAt: '2026-03-03T09:00:00.000Z' } };
    const days = summarizeSettlements([fresh, stored, settled('ord_2', 50_000, '2026-03-03T11:00:00Z')]);
    expect(days).toEqual([
      {
        date: '2026-03-03',
        charges: 2,
        references: ['ord_1', 'ord_2'],
        amount: 150_000,
        fees: 3_000,
        net: 147_000,
      },
    ]);
  });

  it('refuses a missing transaction (a verify that failed, mapped in) with a ValidationError naming it', () => {
    const error = thrown(() =>
      summarizeSettlements([settled('ord_1', 100_000, '2026-03-03T09:00:00Z'), undefined, null] as never),
    );
    expect(isValidationError(error)).toBe(true);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(['1', '2']);
  });

  it('refuses a day whose totals pass the safe integers rather than give a rounded credit', () => {
    const huge = settled('huge', Number.MAX_SAFE_INTEGER, '2026-03-03T09:00:00Z', 200_000);
    const small = settled('small', 2, '2026-03-03T10:00:00Z', 0);
    const error = thrown(() => summarizeSettlements([huge, small]));
    expect(isValidationError(error)).toBe(true);
    expect(error).toMatchObject({
      issues: [{ path: '1.amount', message: expect.stringContaining('2026-03-03') }],
    });
    // Another day holds it: each total is exact.
    const apart = summarizeSettlements([
      huge,
      { ...small, settlement: { status: 'SETTLED', settledAt: '2026-03-04T10:00:00Z' } },
    ]);
    expect(apart.map((d) => d.amount)).toEqual([Number.MAX_SAFE_INTEGER, 2]);
  });

  it('totals what a manual-clock sandbox settled, day by Lagos day', async () => {
    const sandbox = createSandbox({ clock: 'manual', now: () => new Date('2026-03-02T08:00:00.000Z') });
    sandbox.seed([
      { reference: 'a', amount: 100_000, status: 'SUCCESS', paidAt: '2026-03-01T22:30:00.000Z' },
      { reference: 'b', amount: 200_000, status: 'SUCCESS', paidAt: '2026-03-01T23:30:00.000Z' },
      { reference: 'c', amount: 300_000, status: 'SUCCESS', paidAt: '2026-03-02T07:00:00.000Z' },
      { reference: 'd', amount: 400_000, status: 'FAILED' },
    ]);
    const wallet = new Wallet({
      apiKey: 'sk_test_x',
      baseUrl: sandbox.baseUrl,
      dispatcher: sandbox.dispatcher,
    });
    const verified = async (): Promise<Transaction[]> => {
      const all: Transaction[] = [];
      for await (const r of wallet.charges.verifyMany(['a', 'b', 'c', 'd']))
        if (r.transaction) all.push(r.transaction);
      return all;
    };
    // 08:00 UTC on the 2nd: a (paid on the 1st in Lagos) settles at 09:00 UTC today, not yet.
    expect(summarizeSettlements(await verified())).toEqual([]);
    sandbox.advance(2 * 24 * 3_600_000);
    expect(summarizeSettlements(await verified())).toEqual([
      { date: '2026-03-02', charges: 1, references: ['a'], amount: 100_000, fees: 2_000, net: 98_000 },
      { date: '2026-03-03', charges: 2, references: ['b', 'c'], amount: 500_000, fees: 10_000, net: 490_000 },
    ]);
    await wallet.close();
    await sandbox.close();
  });
});
