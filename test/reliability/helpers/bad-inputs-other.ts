/**
 * Malformed inputs for everything that is not the client: money helpers, webhook functions and
 * handler options, and the sandbox's options.
 */
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  estimateFee,
  formatNaira,
  signWebhook,
  toKobo,
  toNaira,
  verifyWebhook,
  verifyWebhookAsync,
} from '@wallet/node';
import { createSandbox } from '@wallet/node/testing';
import type { BadInput } from './bad-inputs-client.js';

const WEBHOOK_SECRET = 'whsec_reliability_suite';
const body = JSON.stringify({
  event: 'charge.success',
  data: { reference: 'order_1', amount: 500_000, customer: { handle: '@ada' } },
});
const { signature } = signWebhook(body, WEBHOOK_SECRET);
const signed = (raw: string) => signWebhook(raw, WEBHOOK_SECRET).signature;

const row = (fn: string, label: string, mention: string, run: () => unknown): BadInput => ({
  fn,
  label,
  mention,
  run,
});
const many = <T>(
  fn: string,
  mention: string,
  values: T[],
  run: (v: T) => unknown,
  label = (v: T) => String(v),
): BadInput[] => values.map((v) => row(fn, label(v), mention, () => run(v)));

const cycle: Record<string, unknown> = {};
cycle.self = cycle;
const onEvent = (): void => undefined;

function handlerCases(name: string, create: (options: never) => unknown): BadInput[] {
  const cases: [string, string, unknown][] = [
    ['null', 'options', null],
    ['undefined', 'options', undefined],
    ['a string', 'options', 'secret'],
    ['{} (no secret, no onEvent)', 'onEvent', {}],
    ['no onEvent', 'onEvent', { secret: WEBHOOK_SECRET }],
    ['onEvent not a function', 'onEvent', { secret: WEBHOOK_SECRET, onEvent: 5 }],
    // A missing secret ({ onEvent }, '') constructs and answers 500: test/webhooks/missing-secret.test.ts.
    ['an empty secret in a list', 'secret', { secret: [WEBHOOK_SECRET, ''], onEvent }],
    ['secret a number', 'secret', { secret: 5, onEvent }],
    ['empty secret list', 'secret', { secret: [], onEvent }],
    ['maxBodyBytes -1', 'maxBodyBytes', { secret: WEBHOOK_SECRET, onEvent, maxBodyBytes: -1 }],
    ['maxBodyBytes 1.5', 'maxBodyBytes', { secret: WEBHOOK_SECRET, onEvent, maxBodyBytes: 1.5 }],
    ['maxBodyBytes "10"', 'maxBodyBytes', { secret: WEBHOOK_SECRET, onEvent, maxBodyBytes: '10' }],
    ['typo maxBodySize', 'maxBodySize', { secret: WEBHOOK_SECRET, onEvent, maxBodySize: 10 }],
    ['bodyTimeout -1', 'bodyTimeout', { secret: WEBHOOK_SECRET, onEvent, bodyTimeout: -1 }],
    ['bodyTimeout "x"', 'bodyTimeout', { secret: WEBHOOK_SECRET, onEvent, bodyTimeout: 'x' }],
    ['dedupe {}', 'dedupe', { secret: WEBHOOK_SECRET, onEvent, dedupe: {} }],
    ['onError 5', 'onError', { secret: WEBHOOK_SECRET, onEvent, onError: 5 }],
  ];
  return cases.map(([label, mention, options]) => row(name, label, mention, () => create(options as never)));
}

const verifyCases: [string, string, () => [unknown, unknown, unknown]][] = [
  ['parsed object body', 'raw', () => [JSON.parse(body), signature, WEBHOOK_SECRET]],
  ['number body', 'raw', () => [42, signature, WEBHOOK_SECRET]],
  ['null body', 'raw', () => [null, signature, WEBHOOK_SECRET]],
  ['no signature', 'signature', () => [body, undefined, WEBHOOK_SECRET]],
  ['empty signature', 'signature', () => [body, '', WEBHOOK_SECRET]],
  ['signature "zz"', 'signature', () => [body, 'zz', WEBHOOK_SECRET]],
  ['valid signature plus a character', 'signature', () => [body, `${signature}a`, WEBHOOK_SECRET]],
  ['signature with U+00A0 around it', 'signature', () => [body, `\u00a0${signature}`, WEBHOOK_SECRET]],
  ['signature a number', 'signature', () => [body, 5, WEBHOOK_SECRET]],
  ['signature of another body', 'signature', () => [body, signed('{}'), WEBHOOK_SECRET]],
  ['empty secret', 'secret', () => [body, signature, '']],
  ['no secret', 'secret', () => [body, signature, undefined]],
  ['empty secret list', 'secret', () => [body, signature, []]],
  ['secret list of a number', 'secret', () => [body, signature, [5]]],
  ['signed non-JSON body', 'body', () => ['not json', signed('not json'), WEBHOOK_SECRET]],
  ['signed JSON array', 'body', () => ['[]', signed('[]'), WEBHOOK_SECRET]],
  ['signed JSON string', 'body', () => ['"x"', signed('"x"'), WEBHOOK_SECRET]],
  [
    'signed lone surrogate body',
    'body',
    () => ['{"event":"\uD800"', signed('{"event":"\uD800"'), WEBHOOK_SECRET],
  ],
];

export const OTHER_BAD_INPUTS: BadInput[] = [
  ...many(
    'toKobo',
    'toKobo',
    [
      '1.005',
      1.005,
      'abc',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
      undefined,
      {},
      '',
      '1e400',
      2 ** 53,
      '--1',
      '₦₦1',
      '1.2.3',
      [] as unknown,
    ],
    (v) => toKobo(v as never),
    (v) => JSON.stringify(v) ?? String(v),
  ),
  ...many(
    'toNaira',
    'toNaira',
    [1.5, Number.NaN, '100', null, 2 ** 53, Number.POSITIVE_INFINITY],
    (v) => toNaira(v as never),
    (v) => String(v),
  ),
  ...many(
    'estimateFee',
    'estimateFee',
    [-1, 1.5, '100', Number.NaN, null, 2 ** 53],
    (v) => estimateFee(v as never),
    (v) => String(v),
  ),
  ...many(
    'formatNaira',
    'formatNaira',
    [1.5, '100', Number.NaN, null],
    (v) => formatNaira(v as never),
    (v) => `kobo ${String(v)}`,
  ),
  row('formatNaira', 'locale "not a locale!!"', 'locale', () =>
    formatNaira(100, { locale: 'not a locale!!' }),
  ),
  row('formatNaira', 'locale 5', 'locale', () => formatNaira(100, { locale: 5 as never })),
  row('formatNaira', 'options null', 'formatNaira', () => formatNaira(100, null as never)),
  row('formatNaira', 'options "en"', 'formatNaira', () => formatNaira(100, 'en' as never)),
  row('formatNaira', 'typo lcale', 'lcale', () => formatNaira(100, { lcale: 'en-NG' } as never)),

  ...verifyCases.map(([label, mention, args]) =>
    row('verifyWebhook', label, mention, () => verifyWebhook(...(args() as [never, never, never]))),
  ),
  ...verifyCases.map(([label, mention, args]) =>
    row('verifyWebhookAsync', label, mention, () => verifyWebhookAsync(...(args() as [never, never, never]))),
  ),
  row('signWebhook', 'undefined payload', 'payload', () => signWebhook(undefined, WEBHOOK_SECRET)),
  row('signWebhook', 'empty secret', 'secret', () => signWebhook(body, '')),
  row('signWebhook', 'secret a number', 'secret', () => signWebhook(body, 5 as never)),
  row('signWebhook', 'cyclic payload', 'payload', () => signWebhook(cycle, WEBHOOK_SECRET)),
  row('signWebhook', 'bigint payload', 'payload', () => signWebhook(10n, WEBHOOK_SECRET)),
  row('signWebhook', 'invalid UTF-8 bytes', 'UTF-8', () =>
    signWebhook(new Uint8Array([0xff, 0xfe]), WEBHOOK_SECRET),
  ),
  ...handlerCases('createWebhookHandler', createWebhookHandler),
  ...handlerCases('createNodeWebhookHandler', createNodeWebhookHandler),

  ...(
    [
      ['webhookUrl without webhookSecret', 'webhookSecret', { webhookUrl: 'http://127.0.0.1:1/hook' }],
      ['webhookUrl ftp:', 'webhookUrl', { webhookUrl: 'ftp://x/hook', webhookSecret: 's' }],
      ['webhookUrl not a URL', 'webhookUrl', { webhookUrl: 'not a url', webhookSecret: 's' }],
      ['baseUrl a number', 'baseUrl', { baseUrl: 5 }],
      ['baseUrl not a URL', 'baseUrl', { baseUrl: 'nope' }],
      ['customers a string', 'customers', { customers: 'ada' }],
      ['allowedIps a string', 'allowedIps', { allowedIps: '10.0.0.1' }],
      ['promptTtlMs -1', 'promptTtlMs', { promptTtlMs: -1 }],
      ['now a number', 'now', { now: 5 }],
      ['unknown option', 'webhookURL', { webhookURL: 'http://127.0.0.1:1/hook' }],
      ['options null', 'createSandbox', null],
      ['options a string', 'createSandbox', 'x'],
    ] as [string, string, unknown][]
  ).map(([label, mention, options]) =>
    row('createSandbox', label, mention, () => createSandbox(options as never)),
  ),
];
