import { afterAll, describe, expect, it } from 'vitest';

import { ValidationError, WalletError, isWalletError } from '@wallet/node';
import { FetchDispatcher, SandboxError, createSandbox } from '@wallet/node/testing';

const sandbox = createSandbox();
afterAll(() => sandbox.close());

// Each row: a call with bad input, and the issue path the ValidationError must name.
const badOptions: [string, unknown, string][] = [
  ['null options', null, ''],
  ['a string for options', 'https://x', ''],
  ['a misspelled option', { webhookURL: 'http://127.0.0.1:1/h' }, 'webhookURL'],
  ['an ftp baseUrl', { baseUrl: 'ftp://x' }, 'baseUrl'],
  ['a baseUrl with a query', { baseUrl: 'https://x.test/?a=1' }, 'baseUrl'],
  ['a webhookUrl without its secret', { webhookUrl: 'http://127.0.0.1:1/h' }, 'webhookSecret'],
  ['a secret without a webhookUrl', { webhookSecret: 'whsec' }, 'webhookUrl'],
  ['zero attempts', { webhookRetry: { attempts: 0 } }, 'webhookRetry.attempts'],
  ['a billion attempts', { webhookRetry: { attempts: 1e9 } }, 'webhookRetry.attempts'],
  ['a negative delay', { webhookRetry: { delayMs: -1 } }, 'webhookRetry.delayMs'],
  ['an infinite cap', { webhookRetry: { maxDelayMs: Infinity } }, 'webhookRetry.maxDelayMs'],
  ['a misspelled retry option', { webhookRetry: { timeout: 5 } }, 'webhookRetry.timeout'],
  ['a NaN prompt lifetime', { promptTtlMs: NaN }, 'promptTtlMs'],
  ['a clock that is not a function', { now: 5 }, 'now'],
  ['a logger without warn', { logger: { info() {} } }, 'logger'],
  ['allowedIps as a string', { allowedIps: '10.0.0.1' }, 'allowedIps'],
  ['an empty clientIp', { clientIp: ' ' }, 'clientIp'],
  ['a negative history', { historyLimit: -1 }, 'historyLimit'],
  ['a fractional key limit', { idempotencyKeyLimit: 0.5 }, 'idempotencyKeyLimit'],
  ['customers as an object', { customers: { '@ada': {} } }, 'customers'],
  [
    'a null bank',
    { customers: [{ handle: '@zed', phone: '+2348000000099', name: 'Zed', banks: [null] }] },
    'customers.0.banks.0',
  ],
  [
    'a bank whose bankId getter throws',
    {
      customers: [
        {
          handle: '@zed',
          phone: '+2348000000099',
          name: 'Zed',
          banks: [
            {
              get bankId(): string {
                throw new Error('boom');
              },
            },
          ],
        },
      ],
    },
    'customers.0.banks.0.bankId',
  ],
  [
    'a customer whose handle getter throws',
    {
      customers: [
        {
          get handle(): string {
            throw new Error('boom');
          },
          phone: '+2348000000099',
          name: 'Zed',
        },
      ],
    },
    'customers.0.handle',
  ],
  // Sparse arrays (a hole at index 0), as `[, x]` makes them.
  [
    'a hole in customers',
    { customers: Object.assign([], { 1: { handle: '@zed', phone: '+2348000000099', name: 'Zed' } }) },
    'customers.0',
  ],
  ['a hole in allowedIps', { allowedIps: Object.assign([], { 1: '10.0.0.1' }) }, 'allowedIps.0'],
  [
    'two banks with one bankId, one of them with a bad account number (both reported)',
    {
      customers: [
        {
          handle: '@zed',
          phone: '+2348000000099',
          name: 'Zed',
          banks: [
            { bankId: 'b1', bankName: 'B', bankCode: '001', accountNumber: '12' },
            { bankId: 'b1', bankName: 'B', bankCode: '001', accountNumber: '1234567890' },
          ],
        },
      ],
    },
    'customers.0.banks',
  ],
  [
    'a bank that is a Proxy whose every read throws',
    {
      customers: [
        {
          handle: '@zed',
          phone: '+2348000000099',
          name: 'Zed',
          banks: [
            new Proxy(
              { bankName: 'B' },
              {
                get(): never {
                  throw new Error('boom');
                },
              },
            ),
          ],
        },
      ],
    },
    'customers.0.banks.0.bankName',
  ],
  [
    'two banks with one bankId beside a null bank (both reported)',
    {
      customers: [
        {
          handle: '@zed',
          phone: '+2348000000099',
          name: 'Zed',
          banks: [
            null,
            { bankId: 'b1', bankName: 'B', bankCode: '001', accountNumber: '1234567890' },
            { bankId: 'b1', bankName: 'B', bankCode: '001', accountNumber: '1234567890' },
          ],
        },
      ],
    },
    'customers.0.banks',
  ],
  [
    'a lone surrogate in a secret',
    { webhookUrl: 'http://127.0.0.1:1/h', webhookSecret: 'a\uD800' },
    'webhookSecret',
  ],
];

describe('createSandbox() options', () => {
  it.each(badOptions)('refuses %s with a ValidationError naming the field', (_, options, path) => {
    let caught: unknown;
    try {
      createSandbox(options as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).issues.map((issue) => issue.path)).toContain(path);
  });

  it('says which option was meant', () => {
    expect(() => createSandbox({ webhookURL: 'x' } as never)).toThrow(
      "webhookURL: is not a known option (did you mean 'webhookUrl'?)",
    );
  });
});

describe('createSandbox() options given by getters', () => {
  it('reads each option once and runs with the value it checked', async () => {
    let reads = 0;
    const chioma = { handle: '@chioma', phone: '+2348000000003', name: 'Chioma Obi' };
    const box = createSandbox({
      get customers() {
        reads += 1;
        return reads === 1 ? [chioma] : [{ handle: 'not a handle!' }];
      },
    } as never);
    box.reset();
    expect(reads).toBe(1);
    expect(box.customers.map((customer) => customer.handle)).toContain('@chioma');
    await box.close();
  });

  it('reads a nested option (webhookRetry, faults) once too', async () => {
    let reads = 0;
    const box = createSandbox({
      webhookRetry: {
        get attempts() {
          reads += 1;
          return 2;
        },
      },
    });
    expect(reads).toBe(1);
    await box.close();
  });

  it('listen() reads its options once and serves with the values it checked', async () => {
    let reads = 0;
    const server = await sandbox.listen({
      get host() {
        reads += 1;
        return reads === 1 ? '127.0.0.1' : 'not a host';
      },
    });
    expect(reads).toBe(1);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    await server.close();
  });

  it('setWebhook() reads its target once and sends where it checked', async () => {
    let reads = 0;
    const box = createSandbox();
    box.setWebhook({
      get url() {
        reads += 1;
        return reads === 1 ? 'http://127.0.0.1:1/hook' : 'ftp://elsewhere';
      },
      secret: 'whsec_x',
    });
    const state = await box.fetch(new Request(`${box.baseUrl}/_sandbox/state`));
    expect(reads).toBe(1);
    expect(((await state.json()) as { data: { webhookUrl: string } }).data.webhookUrl).toBe(
      'http://127.0.0.1:1/hook',
    );
    await box.close();
  });

  it('refuses a getter that throws with a ValidationError', () => {
    class Config {
      get clock(): 'manual' {
        throw new Error('config not loaded');
      }
    }
    expect(() => createSandbox(new Config())).toThrow(ValidationError);
    expect(() => createSandbox(new Config())).toThrow('clock: could not be read (its getter threw)');
  });
});

describe('sandbox functions given bad input', () => {
  const calls: [string, () => unknown][] = [
    ['authorize(42)', () => sandbox.authorize(42 as never)],
    ["authorize('')", () => sandbox.authorize('')],
    ['authorize(lone surrogate)', () => sandbox.authorize('order_\uD800')],
    ['decline(null)', () => sandbox.decline(null as never)],
    ['expire({})', () => sandbox.expire({} as never)],
    ['redeliver([])', () => sandbox.redeliver([] as never)],
    ['charge(undefined)', () => sandbox.charge(undefined as never)],
    ['addCustomer(null)', () => sandbox.addCustomer(null as never)],
    ['addCustomer without a phone', () => sandbox.addCustomer({ handle: '@x', name: 'X' } as never)],
    ["setAllowedIps('10.0.0.1')", () => sandbox.setAllowedIps('10.0.0.1' as never)],
    ['listen({ port: -1 })', () => sandbox.listen({ port: -1 })],
    ['listen({ prot: 80 })', () => sandbox.listen({ prot: 80 } as never)],
    ['listen({ requestTimeoutMs: 0 })', () => sandbox.listen({ requestTimeoutMs: 0 })],
    ["fetch('/v1/refunds')", () => sandbox.fetch('/v1/refunds' as never)],
    [
      'fetch(request, { clientIP })',
      () => sandbox.fetch(new Request('https://x.test/'), { clientIP: '1' } as never),
    ],
    ['new FetchDispatcher(null)', () => new FetchDispatcher(null as never)],
  ];

  it.each(calls)('%s fails with a ValidationError, never a TypeError', async (_, call) => {
    let caught: unknown;
    try {
      await call();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(isWalletError(caught)).toBe(true);
  });

  it('refuses an unknown reference with a SandboxError that is a WalletError', async () => {
    const error: unknown = await sandbox.authorize('order_unknown').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toBeInstanceOf(WalletError);
    expect(isWalletError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'SandboxError', code: 'sandbox_refused', status: 404 });
  });
});
