/**
 * The guards generated from the zod schemas (src/schemas/guards-*.generated.ts, which calls run
 * without loading zod) answer exactly as zod does: for thousands of valid and broken parameters and
 * answers (fields dropped, added, of the wrong type, null, negative, fractional, blank, broken text,
 * in other orders), a guard accepts what zod accepts with the same output, field for field
 * (parameters in the same order too: they are sent in it), and refuses what zod refuses, so zod
 * words it. The one doubt a guard leaves to zod: an own `__proto__` key. An answer's fields keep
 * the order the service sent them in. And the checked-in file is what the schemas give today.
 */
import { describe, expect, it } from 'vitest';
import * as schemas from '../src/schemas/index.js';
import { FAIL, guards } from '../src/schemas/guards.js';
// @ts-expect-error: a plain Node script, without declarations.
import { emitGuards } from '../scripts/emit-guards.mjs';
import { readFileSync } from 'node:fs';

type Json = Record<string, unknown>;
type Name =
  | 'verifyParams'
  | 'dispatchParams'
  | 'refundParams'
  | 'resolveHandleParams'
  | 'transaction'
  | 'chargeDispatch'
  | 'refund'
  | 'resolvedCustomer';

const valid: Record<Name, Json[]> = {
  verifyParams: [{ reference: 'order_1042' }, { reference: 'ref with spaces/and?#%' }],
  dispatchParams: [
    { reference: 'order_1042', bankId: 'bank_01', authChannel: 'wallet_push', description: 'Order 1042' },
    { reference: 'order_7', bankId: 'bnk_01', authChannel: 'wallet_qr' },
    {
      reference: 'o',
      bankId: 'b',
      authChannel: 'wallet_push',
      metadata: { cart: { id: 7, tags: ['a'] }, n: null },
    },
  ],
  refundParams: [
    { reference: 'order_1042', amount: 100_000, reason: 'One item out of stock' },
    { reference: 'order_1043' },
  ],
  resolveHandleParams: [{ handle: '@ada', amount: 500_000, reference: 'order_1042' }],
  transaction: [
    {
      reference: 'order_1042',
      amount: 500000,
      currency: 'NGN',
      fee: 10000,
      netAmount: 490000,
      status: 'SUCCESS',
      channel: 'wallet_push',
      customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
      settlement: { status: 'SETTLED', settledAt: '2026-11-21T12:00:00Z' },
      paidAt: '2026-11-21T10:01:00Z',
    },
    {
      reference: 'order_7',
      amount: 0,
      currency: 'NGN',
      status: 'PENDING_AUTHORIZATION',
      channel: 'wallet_qr',
      customer: { handle: '@bo', phone: '+2348000000002', name: 'Bo' },
      settlement: null,
      newField: { added: 'later' },
    },
  ],
  chargeDispatch: [
    { reference: 'order_1042', status: 'PENDING_AUTHORIZATION', authChannel: 'wallet_push', expiresAt: 'x' },
    {
      reference: 'o',
      status: 'PENDING_SCAN',
      authChannel: 'wallet_qr',
      qrCodeUrl: 'https://q',
      expiresAt: 'x',
    },
  ],
  refund: [
    { refundReference: 'rf_1', amount: 100000, currency: 'NGN', status: 'PROCESSED', refundedAt: 'x' },
    { refundReference: 'rf_2', amount: 5, currency: 'NGN', status: 'PENDING', extra: [1, 2] },
  ],
  resolvedCustomer: [
    {
      customer: { handle: '@ada', name: 'Ada', avatarUrl: 'https://a' },
      availableAuthChannels: [
        { id: 'wallet_push', name: 'Push', isRecommended: true },
        { id: 'q', name: 'QR' },
      ],
      linkedBanks: [
        { bankId: 'b', bankName: 'B', bankCode: '1', accountNumberMasked: '***1', mandateStatus: 'ACTIVE' },
      ],
    },
  ],
};

// What each rule of src/schemas/rules.ts refuses, one value per rule at least: the guards must
// refuse them too (zod then words them).
const refused: Record<Name, unknown[]> = {
  verifyParams: [
    { reference: '   ' },
    { reference: '..' },
    { reference: '\uD800x' },
    { reference: 'o', extra: 1 },
  ],
  dispatchParams: [
    { reference: 'o', bankId: '', authChannel: 'wallet_push' },
    { reference: 'o', bankId: 'b', authChannel: 'wallet_push', description: 'a\uDC00' },
    { reference: 'o', bankId: 'b', authChannel: 'wallet_push', metadata: { n: Number.NaN } },
    { reference: 'o', bankId: 'b', authChannel: 'wallet_push', metadata: new Date(0) },
    { reference: 'o', bankId: 'b', authChannel: 'wallet_sms' },
  ],
  refundParams: [
    { reference: 'o', amount: undefined },
    { reference: 'o', amount: 0 },
    { reference: 'o', amount: 1.5 },
  ],
  resolveHandleParams: [{ handle: '@a', amount: 2 ** 60, reference: 'o' }],
  transaction: [
    { ...valid.transaction[0], fee: null },
    { ...valid.transaction[0], amount: -1 },
  ],
  chargeDispatch: [{ reference: 'o', status: 'PENDING_SCAN', authChannel: 'wallet_qr', expiresAt: 'x' }],
  refund: [{ ...valid.refund[0], amount: 1.5 }],
  resolvedCustomer: [{ ...valid.resolvedCustomer[0], linkedBanks: [{}] }],
};

const ODD: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  '.',
  '..',
  'x',
  '\uD800',
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 60,
  true,
  false,
  [],
  {},
  ['x'],
  { a: 1 },
  'wallet_qr',
  'SUCCESS',
];

// Seeded LCG: the same run every time.
let seed = 7;
const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
const pick = <T>(list: readonly T[]): T => list[next(list.length)]!;

function clone<T>(value: T): T {
  return structuredClone(value);
}

// Every object inside a value, the value itself first.
function objects(value: unknown, out: Json[] = []): Json[] {
  if (typeof value === 'object' && value !== null) {
    if (!Array.isArray(value)) out.push(value as Json);
    for (const item of Object.values(value)) objects(item, out);
  }
  return out;
}

function mutate(value: Json): unknown {
  const root = clone(value);
  for (let n = 1 + next(3); n > 0; n--) {
    const target = pick(objects(root));
    const keys = Object.keys(target);
    const op = next(6);
    if (op === 0 && keys.length > 0) delete target[pick(keys)];
    else if (op === 1) target[pick(['extra', 'Reference', 'amount', 'fee', 'status'])] = pick(ODD);
    else if (op === 2 && keys.length > 0) {
      // The same fields in reverse order.
      const entries = Object.entries(target).reverse();
      for (const k of keys) delete target[k];
      for (const [k, v] of entries) target[k] = v;
    } else if (keys.length > 0) target[pick(keys)] = pick(ODD);
  }
  if (next(20) === 0) return pick(ODD);
  // An own __proto__ key now and then, as JSON.parse makes one.
  return next(15) === 0 ? JSON.parse(JSON.stringify({ ...root, ['__proto__']: { a: 1 } })) : root;
}

// The value as text that keeps what deep equality would blur: key order (unless `sorted`),
// undefined, holes, -0, a prototype other than Object's.
function show(value: unknown, sorted = false): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items = Array.from({ length: value.length }, (_, i) =>
      i in value ? show(value[i], sorted) : 'hole',
    );
    return `[${items.join(',')}]`;
  }
  const proto = Object.getPrototypeOf(value) === Object.prototype ? '' : 'proto!';
  const keys = sorted ? Object.keys(value).sort() : Object.keys(value);
  return `${proto}{${keys.map((k) => `${JSON.stringify(k)}:${show((value as Json)[k], sorted)}`).join(',')}}`;
}

// Answers (loose objects) are checked in place: their own order is kept.
const ANSWERS = new Set(['transaction', 'chargeDispatch', 'refund', 'resolvedCustomer']);

// Does the value hold an own `__proto__` key anywhere (what JSON.parse makes of one)?
function ownProto(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.hasOwn(value, '__proto__') || Object.values(value).some(ownProto);
}

describe('the guards generated from the schemas', () => {
  const names = Object.keys(valid) as Name[];

  it('are what the zod schemas give today (npm run guards writes them)', async () => {
    const files = (await emitGuards()) as { target: string; source: string }[];
    expect(files).toHaveLength(2);
    for (const { target, source } of files) {
      expect(source === readFileSync(target, 'utf8'), `${target} is stale`).toBe(true);
      expect(source).not.toContain('Left to zod');
    }
  });

  it.each(names)('take every valid %s without zod, giving what zod gives', (name) => {
    const schema = schemas[name];
    const parse = guards[name];
    for (const value of valid[name]) {
      const zod = schema.safeParse(value);
      expect(zod.success).toBe(true);
      const out = parse(value);
      expect(out).not.toBe(FAIL);
      expect(show(out)).toBe(show(zod.data));
      if (ANSWERS.has(name)) expect(out, 'checked in place').toBe(value);
    }
  });

  it.each(names)('refuse what each rule of %s refuses, for zod to word', (name) => {
    for (const value of refused[name]) {
      expect(schemas[name].safeParse(value).success, show(value)).toBe(false);
      expect(guards[name](value), show(value)).toBe(FAIL);
    }
  });

  it.each(names)('answer as zod does for 2,000 altered %s', (name) => {
    const schema = schemas[name];
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const value = mutate(pick(valid[name]));
      const zod = schema.safeParse(value);
      const guarded = guards[name](value);
      if (guarded !== FAIL) {
        expect(zod.success, `the guard took what zod refuses: ${show(value)}`).toBe(true);
        const sorted = ANSWERS.has(name);
        expect(show(guarded, sorted), show(value)).toBe(show(zod.data, sorted));
        if (ANSWERS.has(name)) expect(guarded, 'checked in place').toBe(value);
      } else if (zod.success) {
        expect(ownProto(value), `the guard refused what zod takes: ${show(value)}`).toBe(true);
      }
      const ours = schemas.check(schema, value);
      expect(ours.ok, show(value)).toBe(zod.success);
      if (ours.ok && zod.success) {
        accepted++;
        const sorted = ANSWERS.has(name);
        expect(show(ours.value, sorted), show(value)).toBe(show(zod.data, sorted));
      }
      if (!ours.ok) expect(ours.issues.length).toBeGreaterThan(0);
    }
    // Both sides of the line were crossed.
    expect(accepted).toBeGreaterThan(50);
    expect(accepted).toBeLessThan(1950);
  });
});
