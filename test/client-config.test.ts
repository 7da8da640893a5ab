import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError, Wallet } from '@wallet/node';
import { constructionError } from './helpers/construction.js';
import { BASE_URL, http, mockService, ok, paid } from './helpers/mock-service.js';

const KEY = 'sk_test_51HxAbCdEfGh';

afterEach(() => vi.unstubAllEnvs());

describe('a build without the environment (next build in CI)', () => {
  it('constructs at module level; the first call names the missing variables and sends nothing', async () => {
    vi.stubEnv('WALLET_SECRET_KEY', '');
    vi.stubEnv('WALLET_BASE_URL', '');
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    const wallet = new Wallet({ dispatcher: mock.dispatcher });
    const error = await wallet.charges.verify('r').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual([
      'WALLET_SECRET_KEY',
      'WALLET_BASE_URL',
    ]);
    expect((error as Error).message).toMatch(
      /WALLET_SECRET_KEY: is not set; .*pass apiKey to new Wallet\(\)/,
    );
    expect((error as Error).message).toMatch(/Nothing was sent\.$/);
    expect(mock.seen).toEqual([]);
  });

  it('names only what is missing, and says it for POSTs too', async () => {
    vi.stubEnv('WALLET_SECRET_KEY', '');
    const mock = mockService();
    const wallet = new Wallet({ baseUrl: BASE_URL, dispatcher: mock.dispatcher });
    const error = (await wallet.refunds
      .create({ reference: 'r' })
      .catch((e: unknown) => e)) as ValidationError;
    expect(error.issues).toEqual([
      { path: 'WALLET_SECRET_KEY', message: expect.stringMatching(/^is not set/) },
    ]);
    expect(mock.seen).toEqual([]);
  });

  it('reading mode or baseUrl of an unconfigured client names the variable; printing it does not throw', () => {
    vi.stubEnv('WALLET_SECRET_KEY', '');
    vi.stubEnv('WALLET_BASE_URL', '');
    const wallet = new Wallet();
    expect(() => wallet.mode).toThrow(/WALLET_SECRET_KEY: is not set/);
    expect(() => wallet.baseUrl).toThrow(/WALLET_BASE_URL: is not set/);
    expect(JSON.stringify(wallet)).toBe('{}');
  });

  it('works once the variables are set before the client is built', async () => {
    vi.stubEnv('WALLET_SECRET_KEY', KEY);
    vi.stubEnv('WALLET_BASE_URL', BASE_URL);
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    const wallet = new Wallet({ dispatcher: mock.dispatcher });
    await expect(wallet.charges.verify('r')).resolves.toMatchObject({ status: 'SUCCESS' });
  });

  it('a variable that is set but malformed still throws at construction, named as the variable', () => {
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_test_abc def');
    vi.stubEnv('WALLET_BASE_URL', 'http://api.example.ng');
    const error = constructionError({});
    expect(error.issues.map((i) => i.path)).toEqual(['WALLET_SECRET_KEY', 'WALLET_BASE_URL']);
    expect(error.message).not.toContain('abc def');
  });

  it('WALLET_LOG with a wrong value names the variable, not the logLevel option', () => {
    vi.stubEnv('WALLET_LOG', 'DEBUG');
    const error = constructionError({ apiKey: KEY, baseUrl: BASE_URL });
    expect(error.issues).toEqual([
      { path: 'WALLET_LOG', message: expect.stringMatching(/must be lowercase/) },
    ]);
    vi.stubEnv('WALLET_LOG', 'loud');
    expect(constructionError({ apiKey: KEY, baseUrl: BASE_URL }).issues[0]?.path).toBe('WALLET_LOG');
    expect(
      constructionError({ apiKey: KEY, baseUrl: BASE_URL, logLevel: 'loud' as never }).issues[0]?.path,
    ).toBe('logLevel');
  });
});

describe('a base URL with the version in it', () => {
  it.each([
    ['https://api.example.ng/v1', 'https://api.example.ng'],
    ['https://api.example.ng/v1/', 'https://api.example.ng'],
    ['https://gw.example.ng/wallet/v1', 'https://gw.example.ng/wallet'],
  ])('refuses %s with the fix', (baseUrl, fixed) => {
    const error = constructionError({ apiKey: KEY, baseUrl });
    expect(error.issues).toEqual([
      { path: 'baseUrl', message: `ends in /v1: drop /v1 (use ${fixed}); the SDK adds it to every path` },
    ]);
  });

  it('keeps a gateway prefix that is not the version, and sends under it', async () => {
    const base = 'https://gw.example.ng/wallet';
    const mock = mockService(
      http.get(`${base}/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    const wallet = new Wallet({ apiKey: KEY, baseUrl: `${base}/`, dispatcher: mock.dispatcher });
    expect(wallet.baseUrl).toBe(base);
    await wallet.charges.verify('r');
    expect(mock.seen[0]?.url.pathname).toBe('/wallet/v1/charges/verify/r');
  });
});

describe('a key message says what is actually wrong, never the key', () => {
  it.each([
    ['a zero-width space', `sk_test_abc\u200bdef0123`, /invisible character .* at character 12/],
    ['a BOM in front', `\ufeffsk_test_abcdef0123`, /invisible character/],
    ['an inner space', 'sk_test_abc def0123', /contains whitespace at character 12/],
    ['an inner line break', 'sk_test_abc\ndef0123', /contains whitespace/],
    ['leading whitespace', ' sk_test_abcdef0123', /leading or trailing whitespace/],
    [
      '509 characters',
      `sk_test_${'a'.repeat(501)}`,
      /is 509 characters long, longer than any key \(at most 508\)/,
    ],
    ['a non-ASCII letter', 'sk_test_abcdéf0123', /not printable ASCII at character 13/],
    // Docker's --env-file and systemd's EnvironmentFile keep the quotes a .env file has.
    ['double quotes around it', '"sk_test_abcdef0123"', /is wrapped in quotes: remove them/],
    ['single quotes around it', "'sk_live_abcdef0123'", /is wrapped in quotes: remove them/],
    ['a whole env file line', 'WALLET_SECRET_KEY=sk_test_abcdef0123', /a whole line of an env file/],
    // The line as a .env file has it, quotes and all (a dashboard's value field pasted the whole line).
    [
      'a whole env file line with its quotes',
      'WALLET_SECRET_KEY="sk_live_abcdef0123"',
      /a whole line of an env file/,
    ],
  ])('%s', (_, apiKey, message) => {
    const error = constructionError({ apiKey, baseUrl: BASE_URL });
    expect(error.issues).toEqual([{ path: 'apiKey', message: expect.stringMatching(message) }]);
    expect(error.message).not.toMatch(/must start with/);
    expect(error.message).not.toContain(apiKey.trim().slice(8, 14));
  });

  it('names WALLET_SECRET_KEY in the fix when the key came from it', () => {
    vi.stubEnv('WALLET_SECRET_KEY', `sk_test_${'a'.repeat(501)}`);
    const error = constructionError({ baseUrl: BASE_URL });
    expect(error.issues).toEqual([
      {
        path: 'WALLET_SECRET_KEY',
        message: expect.stringContaining('check that WALLET_SECRET_KEY holds only the key'),
      },
    ]);
  });
});
