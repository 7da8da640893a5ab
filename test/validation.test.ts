import { describe, expect, it } from 'vitest';
import { ResponseValidationError, ValidationError, type ValidationIssue } from '@wallet/node';
import { BASE_URL, dispatched, http, mockService, ok, paid, refunded } from './helpers/mock-service.js';

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

const resolve = { handle: '@ada', amount: 500_000, reference: 'order_1042' };
const dispatch = { reference: 'order_1042', bankId: 'bnk_01', authChannel: 'wallet_push' };

type Call = (w: ReturnType<ReturnType<typeof mockService>['wallet']>) => Promise<unknown>;
const cases: [string, Call, string, RegExp][] = [
  [
    'amount 1.5',
    (w) => w.charges.resolveHandle({ ...resolve, amount: 1.5 }),
    'amount',
    /whole number of Kobo/,
  ],
  ['amount 0', (w) => w.charges.resolveHandle({ ...resolve, amount: 0 }), 'amount', /greater than 0/],
  ['amount -1', (w) => w.charges.resolveHandle({ ...resolve, amount: -1 }), 'amount', /greater than 0/],
  [
    "amount '100'",
    (w) => w.charges.resolveHandle({ ...resolve, amount: '100' as never }),
    'amount',
    /not the string "100"/,
  ],
  ['amount NaN', (w) => w.charges.resolveHandle({ ...resolve, amount: NaN }), 'amount', /not NaN/],
  [
    'amount Infinity',
    (w) => w.charges.resolveHandle({ ...resolve, amount: Infinity }),
    'amount',
    /whole number/,
  ],
  [
    'amount 2**53',
    (w) => w.charges.resolveHandle({ ...resolve, amount: 2 ** 53 }),
    'amount',
    /at most 9007199254740991/,
  ],
  [
    'a missing amount',
    (w) => w.charges.resolveHandle({ handle: '@ada', reference: 'r' } as never),
    'amount',
    /is required/,
  ],
  [
    'an empty handle',
    (w) => w.charges.resolveHandle({ ...resolve, handle: '' }),
    'handle',
    /must not be empty/,
  ],
  [
    'a blank reference',
    (w) => w.charges.resolveHandle({ ...resolve, reference: '  ' }),
    'reference',
    /must not be empty/,
  ],
  [
    'a numeric reference',
    (w) => w.charges.resolveHandle({ ...resolve, reference: 1042 as never }),
    'reference',
    /must be a string/,
  ],
  [
    'a misspelled field',
    (w) => w.charges.resolveHandle({ ...resolve, refrence: 'x' } as never),
    'refrence',
    /did you mean 'reference'/,
  ],
  [
    'an empty bankId',
    (w) => w.charges.dispatch({ ...dispatch, bankId: '' } as never),
    'bankId',
    /must not be empty/,
  ],
  [
    'an unknown authChannel',
    (w) => w.charges.dispatch({ ...dispatch, authChannel: 'wallet_pos' } as never),
    'authChannel',
    /'wallet_push' or 'wallet_qr'/,
  ],
  [
    'metadata with a function',
    (w) => w.charges.dispatch({ ...dispatch, metadata: { cb: () => 1 } } as never),
    'metadata.cb',
    /not a function/,
  ],
  [
    'metadata with a cycle',
    (w) => w.charges.dispatch({ ...dispatch, metadata: cyclic } as never),
    'metadata.self',
    /refers back to itself/,
  ],
  [
    'metadata with a bigint',
    (w) => w.charges.dispatch({ ...dispatch, metadata: { n: 1n } } as never),
    'metadata.n',
    /bigint/,
  ],
  [
    'metadata with a Date',
    (w) => w.charges.dispatch({ ...dispatch, metadata: { at: new Date() } } as never),
    'metadata.at',
    /instance of Date/,
  ],
  [
    'metadata as an array',
    (w) => w.charges.dispatch({ ...dispatch, metadata: [1] } as never),
    'metadata',
    /plain object/,
  ],
  [
    'metadata that is a Date',
    (w) => w.charges.dispatch({ ...dispatch, metadata: new Date(0) } as never),
    'metadata',
    /plain object of JSON values, not an instance of Date/,
  ],
  [
    'metadata with NaN deep inside',
    (w) => w.charges.dispatch({ ...dispatch, metadata: { a: [{ b: NaN }] } } as never),
    'metadata.a.0.b',
    /NaN is not/,
  ],
  ['a verify reference of ".."', (w) => w.charges.verify('..'), 'reference', /must not be ".."/],
  ['an empty verify reference', (w) => w.charges.verify(''), 'reference', /must not be empty/],
  [
    'a refund amount of 10.5',
    (w) => w.refunds.create({ reference: 'r', amount: 10.5 }),
    'amount',
    /whole number/,
  ],
  [
    'a refund amount present but undefined',
    (w) => w.refunds.create({ reference: 'r', amount: undefined } as never),
    'amount',
    /omit the key entirely/,
  ],
  [
    'params that are not an object',
    (w) => w.refunds.create(null as never),
    '',
    /must be an object, not null/,
  ],
  [
    'an unknown request option',
    (w) => w.charges.verify('r', { retries: 3 } as never),
    'options.retries',
    /not a request option/,
  ],
  ['a negative timeout', (w) => w.charges.verify('r', { timeout: -1 }), 'options.timeout', /positive number/],
  [
    'an empty idempotency key',
    (w) => w.refunds.create({ reference: 'r' }, { idempotencyKey: '' }),
    'options.idempotencyKey',
    /1 to 255/,
  ],
  [
    'a signal without removeEventListener',
    (w) => w.charges.verify('r', { signal: { aborted: false, addEventListener() {} } as never }),
    'options.signal',
    /must be an AbortSignal/,
  ],
  [
    'a signal whose aborted getter throws',
    (w) => w.charges.verify('r', { signal: Object.create(AbortSignal.prototype) as AbortSignal }),
    'options.signal',
    /must be an AbortSignal/,
  ],
  [
    'a header with a line break',
    (w) => w.charges.verify('r', { headers: { 'x-a': 'b\r\nx: y' } }),
    'options.headers.x-a',
    /line break/,
  ],
  // The README resolves "by handle or phone": a phone number goes in handle, as the service takes it.
  [
    'a phone number under phone',
    (w) => w.charges.resolveHandle({ phone: '+2348000000001', amount: 500_000, reference: 'r' } as never),
    'phone',
    /a phone number goes in handle/,
  ],
  // A missing await: the Promise of the parameters, or of a value, is named as what it is.
  [
    'parameters that are a Promise',
    (w) => w.refunds.create(Promise.resolve({ reference: 'r' }) as never),
    '',
    /must be an object, not a Promise \(a missing await\?\)/,
  ],
  [
    'a reference that is a Promise',
    (w) => w.charges.verify(Promise.resolve('r') as never),
    'reference',
    /not a Promise \(a missing await\?\)/,
  ],
  [
    'an amount that is a Promise',
    (w) => w.charges.resolveHandle({ ...resolve, amount: Promise.resolve(500_000) as never }),
    'amount',
    /not a Promise \(a missing await\?\)/,
  ],
  // Taken for options without any, the call went out with a new key: a retry could refund twice.
  [
    'request options that are a Promise',
    (w) => w.refunds.create({ reference: 'r' }, Promise.resolve({ idempotencyKey: 'refund-7' }) as never),
    'options',
    /must be an object, not a Promise \(a missing await\?\)/,
  ],
];

describe('request validation', () => {
  it.each(cases)('refuses %s by field, and sends nothing', async (_, call, path, message) => {
    const mock = mockService();
    const error = await call(mock.wallet()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const issue = (error as ValidationError).issues.find((i: ValidationIssue) => i.path === path);
    expect(issue?.message).toMatch(message);
    expect((error as Error).message).toContain('Nothing was sent.');
    expect(mock.seen).toHaveLength(0);
  });

  it('lists every problem at once', async () => {
    const mock = mockService();
    const error = (await mock
      .wallet()
      .charges.resolveHandle({ handle: '', amount: 1.5, reference: '' })
      .catch((e: unknown) => e)) as ValidationError;
    expect(error.issues.map((i) => i.path).sort()).toEqual(['amount', 'handle', 'reference']);
    expect(error.code).toBe('invalid_request');
  });

  it("refuses an own __proto__ key (JSON.parse makes one) rather than reading its fields as the caller's", async () => {
    // Assigned into the copy, `__proto__` became its prototype: `amount: 5` was then read through
    // it, and a full refund asked for by a parsed request body went out as a partial one.
    const mock = mockService();
    const params = JSON.parse('{"reference":"order_1042","__proto__":{"amount":5}}') as { reference: string };
    const error = await mock
      .wallet()
      .refunds.create(params)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toContain('__proto__');
    expect(mock.seen).toHaveLength(0);
  });

  it('accepts nested JSON metadata, null included', async () => {
    const { http, ok, BASE_URL, dispatched } = await import('./helpers/mock-service.js');
    const mock = mockService(http.post(`${BASE_URL}/v1/charges/dispatch`, () => ok(dispatched)));
    const metadata = { order: { id: 1042, lines: [{ sku: 'A', qty: 2 }] }, coupon: null, vip: true };
    await mock.wallet().charges.dispatch({ ...dispatch, authChannel: 'wallet_push', metadata });
    expect(JSON.parse(mock.seen[0]!.body).metadata).toEqual(metadata);
  });

  it('sends the parameters in the order of their schema, whatever order they were given in', async () => {
    const mock = mockService(http.post(`${BASE_URL}/v1/charges/dispatch`, () => ok(dispatched)));
    const params = {
      metadata: { a: 1 },
      description: 'd',
      authChannel: 'wallet_push',
      bankId: 'b',
      reference: dispatched.reference,
    };
    await mock.wallet().charges.dispatch(params as never);
    expect(Object.keys(JSON.parse(mock.seen[0]!.body) as object)).toEqual([
      'reference',
      'bankId',
      'authChannel',
      'description',
      'metadata',
    ]);
  });
});

describe('response validation', () => {
  it('ends a refund whose answer fails its schema with its outcome unknown and its key', async () => {
    const mock = mockService(
      http.post(`${BASE_URL}/v1/refunds`, () => ok({ ...refunded, amount: -100_000 })),
    );
    const error = await mock
      .wallet({ maxRetries: 0 })
      .refunds.create({ reference: 'order_1042' }, { idempotencyKey: 'refund-attempt-7' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'refund-attempt-7', status: 200 });
    expect(mock.seen).toHaveLength(1);
  });

  it("never takes an answer's own __proto__ key (JSON.parse makes one) for the data's prototype", async () => {
    const body = `{"status":"success","data":${JSON.stringify(paid).slice(0, -1)},"__proto__":{"polluted":1}}}`;
    const mock = mockService(
      http.get(
        `${BASE_URL}/v1/charges/verify/${paid.reference}`,
        () => new Response(body, { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const tx = await mock.wallet().charges.verify(paid.reference);
    expect(tx).toMatchObject({ reference: paid.reference, amount: paid.amount });
    expect(Object.getPrototypeOf(tx)).toBe(Object.prototype);
    expect((tx as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });
});
