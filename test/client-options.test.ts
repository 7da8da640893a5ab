import { afterEach, describe, expect, it, vi } from 'vitest';
import { Wallet, WalletError } from '@wallet/node';
import { constructionError } from './helpers/construction.js';
import { BASE_URL, http, mockService, ok, paid } from './helpers/mock-service.js';

const KEY = 'sk_test_51HxAbCdEfGh';

afterEach(() => vi.unstubAllEnvs());

describe('new Wallet(options)', () => {
  it('reads apiKey and baseUrl from WALLET_SECRET_KEY and WALLET_BASE_URL', () => {
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_live_abc123');
    vi.stubEnv('WALLET_BASE_URL', 'https://pay.example.ng/');
    const wallet = new Wallet();
    expect(wallet.mode).toBe('live');
    expect(wallet.baseUrl).toBe('https://pay.example.ng');
  });

  it('prefers options over the environment', () => {
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_live_abc123');
    vi.stubEnv('WALLET_BASE_URL', 'https://pay.example.ng');
    expect(new Wallet({ apiKey: KEY, baseUrl: 'http://localhost:4010' }).mode).toBe('test');
  });

  it('has no built-in host: an empty baseUrl option is a clear error', () => {
    const error = constructionError({ apiKey: KEY, baseUrl: '' });
    expect(error.issues).toEqual([{ path: 'baseUrl', message: expect.stringContaining('no built-in host') }]);
  });

  it.each([
    ['empty', '', /is empty/],
    ['a publishable key', 'pk_test_abcdef', /public or restricted key/],
    ['a key with a trailing newline', `${KEY}\n`, /whitespace/],
    ['a key of another service', 'xk_live_0123456789abcdef', /must start with sk_live_ or sk_test_/],
    ['a bare prefix', 'sk_test_', /nothing after its sk_live_ or sk_test_ prefix/],
  ])('refuses an apiKey that is %s without repeating it', (_, apiKey, message) => {
    vi.stubEnv('WALLET_SECRET_KEY', '');
    const error = constructionError({ apiKey: apiKey, baseUrl: BASE_URL });
    expect(error.issues[0]).toEqual({ path: 'apiKey', message: expect.stringMatching(message) });
    // A bare prefix is the very text the message names; anything longer must not be repeated.
    if (apiKey && apiKey.length > 'sk_test_'.length) {
      expect(error.message).not.toContain(apiKey.trim());
      expect(error.message).not.toContain(apiKey.slice(3, 12));
    }
  });

  it.each([
    ['http://api.example.ng', /https:/],
    ['ftp://api.example.ng', /https:/],
    ['not a url', /valid absolute URL/],
    ['https://user:pw@api.example.ng', /credentials/],
    ['https://api.example.ng/?v=1', /query/],
    // Without a scheme: localhost:4010 parsed as a URL of scheme localhost: and was told to use https:.
    ['localhost:4010', /has no scheme: use http:\/\/localhost:4010$/],
    ['127.0.0.1:4010', /has no scheme: use http:\/\/127\.0\.0\.1:4010$/],
    ['api.example.ng', /has no scheme: use https:\/\/api\.example\.ng$/],
    ['"https://api.example.ng"', /is wrapped in quotes: remove them where baseUrl is set/],
  ])('refuses baseUrl %s', (baseUrl, message) => {
    expect(constructionError({ apiKey: KEY, baseUrl }).issues[0]?.message).toMatch(message);
  });

  it.each([
    'http://localhost:4010',
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    'http://[::1]:9000',
    'https://api.example.ng',
  ])('accepts baseUrl %s', (baseUrl) => {
    expect(new Wallet({ apiKey: KEY, baseUrl }).baseUrl).toBe(baseUrl);
  });

  it('refuses an unknown option by name, so a typo cannot fall back to the environment', () => {
    const error = constructionError({ apikey: KEY, apiKey: KEY, baseUrl: BASE_URL } as never);
    expect(error.issues).toEqual([
      { path: 'apikey', message: "is not an option of Wallet (did you mean 'apiKey'?)" },
    ]);
  });

  it('checks the options a config class gives by getters, as it checks its own', () => {
    class Settings {
      readonly apiKey = KEY;
      readonly baseUrl = BASE_URL;
      // An environment variable that is not set: NaN must not become the deadline.
      get timeout(): number {
        return Number(process.env['WALLET_TEST_UNSET_TIMEOUT']);
      }
    }
    expect(constructionError(new Settings()).issues.map((issue) => issue.path)).toEqual(['timeout']);
  });

  it("refuses a config class whose key getter throws, and does not take the environment's key instead", () => {
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_live_abc123');
    class Settings {
      readonly baseUrl = BASE_URL;
      // A secret manager that is not ready yet.
      get apiKey(): string {
        throw new Error('vault sealed');
      }
    }
    expect(constructionError(new Settings()).issues).toEqual([
      { path: 'apiKey', message: 'could not be read (its getter threw)' },
    ]);
  });

  it('refuses options that are a Promise (a missing await), never building from the environment instead', () => {
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_live_abc123');
    vi.stubEnv('WALLET_BASE_URL', 'https://pay.example.ng');
    const options = Promise.resolve({ apiKey: KEY, baseUrl: BASE_URL });
    expect(constructionError(options as never).issues).toEqual([
      { path: '', message: 'must be an object, not a Promise (a missing await?)' },
    ]);
  });

  it("refuses an own __proto__ key as an unknown option, never as the options' prototype", () => {
    const parsed = JSON.parse('{"__proto__":{"maxRetries":1000}}') as object;
    expect(constructionError({ ...parsed, apiKey: KEY, baseUrl: BASE_URL }).issues).toEqual([
      { path: '__proto__', message: expect.stringContaining('is not an option of Wallet') as string },
    ]);
  });

  it.each([
    [{ timeout: 0 }, 'timeout'],
    [{ timeout: Number.NaN }, 'timeout'],
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ logLevel: 'verbose' }, 'logLevel'],
    [{ defaultHeaders: { 'X-Idempotency-Key': 'fixed' } }, 'defaultHeaders.X-Idempotency-Key'],
    [{ dispatcher: {} }, 'dispatcher'],
    [{ appInfo: { name: '' } }, 'appInfo.name'],
  ])('refuses %j', (extra, path) => {
    expect(constructionError({ apiKey: KEY, baseUrl: BASE_URL, ...(extra as object) }).issues[0]?.path).toBe(
      path,
    );
  });

  it('reads the log level from WALLET_LOG', async () => {
    vi.stubEnv('WALLET_LOG', 'debug');
    const lines: string[] = [];
    const logger = { debug: (m: string) => lines.push(m), info: () => {}, warn: () => {}, error: () => {} };
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    await mock.wallet({ logger }).charges.verify('r');
    expect(lines.some((l) => l.includes('GET /v1/charges/verify/r → HTTP 200'))).toBe(true);
  });
});

describe('wallet.close()', () => {
  it('refuses calls after close with code client_closed, and leaves a passed-in dispatcher open', async () => {
    const mock = mockService(
      http.get(`${BASE_URL}/v1/charges/verify/r`, () => ok({ ...paid, reference: 'r' }, null)),
    );
    const wallet = mock.wallet();
    await wallet.close();
    const error = await wallet.charges.verify('r').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletError);
    expect(error).toMatchObject({ code: 'client_closed' });
    await expect(mock.wallet().charges.verify('r')).resolves.toMatchObject({ reference: 'r' });
  });
});
