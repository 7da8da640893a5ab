/**
 * Malformed inputs for the client: its options, each resource method's parameters, and the
 * per-call request options. Each row names the word the error message must contain, so a merchant
 * reading it knows what to fix.
 */
import { Wallet } from '@wallet/node';
import { SECRET_KEY } from './surfaces.js';

export interface BadInput {
  fn: string;
  label: string;
  /** The word (field, option or function name) the message must contain, case-insensitively. */
  mention: string;
  run: (ctx: { url: string; wallet: Wallet }) => unknown;
}

const show = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'function') return 'a function';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
};

function deepObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}
const cycle: Record<string, unknown> = { a: 1 };
cycle.self = cycle;

const option = (name: string, values: unknown[]): BadInput[] =>
  values.map((value) => ({
    fn: 'new Wallet',
    label: `${name}: ${show(value)}`,
    mention: name,
    run: ({ url }) => new Wallet({ apiKey: SECRET_KEY, baseUrl: url, [name]: value }),
  }));

const dispatchOk = { reference: 'order_1', bankId: 'bnk_01', authChannel: 'wallet_push' };
const resolveOk = { handle: '@ada', amount: 500_000, reference: 'order_1' };
const refundOk = { reference: 'order_1', amount: 100 };

const param = (
  fn: 'resolveHandle' | 'dispatch' | 'refunds.create',
  base: Record<string, unknown>,
  field: string,
  values: unknown[],
): BadInput[] =>
  values.map((value) => ({
    fn,
    label: `${field}: ${show(value)}`,
    mention: field,
    run: ({ wallet }) => {
      const params = { ...base, [field]: value };
      if (value === undefined) delete params[field];
      if (fn === 'resolveHandle') return wallet.charges.resolveHandle(params as never);
      if (fn === 'dispatch') return wallet.charges.dispatch(params as never);
      return wallet.refunds.create(params as never);
    },
  }));

const requestOption = (name: string, values: unknown[]): BadInput[] =>
  values.map((value) => ({
    fn: 'RequestOptions',
    label: `${name}: ${show(value)}`,
    mention: name,
    run: ({ wallet }) => wallet.refunds.create(refundOk, { [name]: value }),
  }));

const headerCases: unknown[] = [
  { 'x-a': 'a\r\nb' },
  { 'x-a': 1 },
  { 'x-a': 'Ṣọ́pù' },
  { 'x-a': '\0' },
  { 'bad name': 'x' },
  { 'x-a:': 'x' },
  { Authorization: 'Bearer other' },
  { 'X-Idempotency-Key': 'k' },
  { expect: '100-continue' },
  { upgrade: 'h2c' },
  { 'content-length': '5' },
  { host: 'evil.example' },
  { 'transfer-encoding': 'chunked' },
  { 'X-Tenant': 'a', 'x-tenant': 'b' },
  'x-a: b',
  null,
  ['x-a', 'b'],
];

export const CLIENT_BAD_INPUTS: BadInput[] = [
  ...[null, 'sk_test_x', 42, []].map<BadInput>((value) => ({
    fn: 'new Wallet',
    label: `options: ${show(value)}`,
    mention: 'options',
    run: () => new Wallet(value as never),
  })),
  ...option('apiKey', [
    '',
    123,
    'pk_test_abc',
    'sk_test_',
    ' sk_test_abc',
    'sk_test_abc\n',
    'sk_test_a b',
    'sk_test_é',
    null,
    {},
  ]),
  ...option('baseUrl', [
    '',
    'not a url',
    'http://example.com',
    'ftp://127.0.0.1',
    'https://u:p@x.com',
    'https://x.com/?q=1',
    'https://x.com/#f',
    42,
    null,
    'javascript:alert(1)',
  ]),
  ...option('timeout', [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1000', 2 ** 31, null]),
  ...option('maxRetries', [-1, 1.5, 11, Number.NaN, '2', null]),
  ...option('dispatcher', [{}, 'agent', 42, null]),
  ...option('defaultHeaders', headerCases),
  ...option('appInfo', [
    { name: '' },
    { name: 5 },
    'shop',
    null,
    { name: 'a\nb' },
    { name: 'x', version: 'a\rb' },
    {},
  ]),
  ...option('logger', [{}, { debug() {} }, 'console', null, 42]),
  ...option('logLevel', ['verbose', 'DEBUG', 3, null]),
  ...option('maxConnections', [0, -1, 1.5, '64', Number.NaN]),
  ...option('fetch', ['fetch', {}, 42]),
  ...option('timeOut', [1000]),

  ...param('resolveHandle', resolveOk, 'handle', ['', 5, null, undefined, 'ada\uD800']),
  ...param('resolveHandle', resolveOk, 'amount', [
    1.5,
    0,
    -1,
    '100',
    Number.NaN,
    2 ** 53,
    Number.POSITIVE_INFINITY,
    null,
    undefined,
  ]),
  ...param('resolveHandle', resolveOk, 'reference', ['', 5, undefined, '\uDC00x']),
  ...param('resolveHandle', resolveOk, 'amout', [1]),
  ...param('dispatch', dispatchOk, 'reference', ['', 42, undefined]),
  ...param('dispatch', dispatchOk, 'bankId', ['', 42, undefined]),
  ...param('dispatch', dispatchOk, 'authChannel', ['sms', '', undefined, 'WALLET_PUSH']),
  ...param('dispatch', dispatchOk, 'description', [5, 'a\uD800']),
  ...param('dispatch', dispatchOk, 'metadata', [
    'x',
    [1],
    { f: () => 1 },
    { b: 10n },
    { d: new Date(0) },
    cycle,
    deepObject(20_000),
    { n: Number.NaN },
    { i: Number.POSITIVE_INFINITY },
    new Map([['a', 1]]),
    { s: 'x\uD800' },
  ]),
  ...param('dispatch', dispatchOk, 'bankid', ['bnk_01']),
  ...param('refunds.create', refundOk, 'amount', [0, -1, 1.5, '1', Number.NaN]),
  ...param('refunds.create', refundOk, 'reference', ['', undefined, 7]),
  ...param('refunds.create', refundOk, 'reason', [5]),
  ...param('refunds.create', refundOk, 'amt', [1]),
  ...[null, 'order_1', 42].map<BadInput>((value) => ({
    fn: 'dispatch',
    label: `params: ${show(value)}`,
    mention: 'dispatch',
    run: ({ wallet }) => wallet.charges.dispatch(value as never),
  })),
  ...['', 42, null, undefined, 'order_\uD800', {}, 'order_\uDFFF_1'].map<BadInput>((value) => ({
    fn: 'verify',
    label: `reference: ${show(value)}`,
    mention: 'reference',
    run: ({ wallet }) => wallet.charges.verify(value as never),
  })),

  ...requestOption('idempotencyKey', ['', 'a b', 'é', 5, 'x'.repeat(256), 'k\n']),
  ...requestOption('timeout', [0, -5, '1']),
  ...requestOption('maxRetries', [-1, 1.5, '2']),
  ...requestOption('signal', [{}, 'x']),
  ...requestOption('headers', headerCases.slice(0, 8)),
  ...requestOption('retries', [2]),
  ...['x', 42].map<BadInput>((value) => ({
    fn: 'RequestOptions',
    label: `options: ${show(value)}`,
    mention: 'options',
    run: ({ wallet }) => wallet.refunds.create(refundOk, value as never),
  })),
];
