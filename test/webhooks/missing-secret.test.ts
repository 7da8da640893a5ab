/**
 * A handler built while its secret is missing (a module-level route during a `next build` with no
 * WALLET_WEBHOOK_SECRET) constructs, answers each delivery 500 and reports the missing secret by
 * its variable, so the service delivers again once it is set; a malformed secret still throws.
 */
import type { Server } from 'node:http';

import { afterEach, describe, expect, test, vi } from 'vitest';

import {
  createNodeWebhookHandler,
  createWebhookHandler,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookVerificationError,
} from '../../src/webhooks.js';
import { BODY, SECRET, SIGNATURE, close, deliver, listen, recording } from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

const UNSET = process.env['WALLET_WEBHOOK_SECRET_NEVER_SET'];

describe.each([
  ['createWebhookHandler', createWebhookHandler],
  ['createNodeWebhookHandler', createNodeWebhookHandler],
] as const)('%s', (name, create) => {
  async function deliverTo(secret: unknown, defaultLog = false) {
    const rec = recording(create as typeof createWebhookHandler, {
      secret: secret as string,
      ...(defaultLog ? { onError: undefined as never } : {}),
    });
    if (name === 'createWebhookHandler') {
      const response = await rec.handler(
        new Request('https://m.example/', {
          method: 'POST',
          body: BODY,
          headers: { 'x-wallet-signature': SIGNATURE },
        }),
      );
      return { ...rec, status: response.status, json: await response.json() };
    }
    const handler = rec.handler as unknown as ReturnType<typeof createNodeWebhookHandler>;
    const { url, server } = await listen((req, res) => void handler(req, res));
    servers.push(server);
    return { ...rec, ...(await deliver(url, BODY, SIGNATURE)) };
  }

  test.each([
    ['undefined', UNSET],
    ["''", ''],
    ['a rotation of two unset variables', [UNSET, UNSET]],
  ])(
    'with the secret %s: constructs, then answers each delivery 500 naming the variable',
    async (_, secret) => {
      const { status, json, events, errors } = await deliverTo(secret);
      expect(status).toBe(500);
      expect(json).toMatchObject({ received: false, error: 'missing_secret' });
      expect(events).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]![1]).toEqual({ status: 500 });
      expect(errors[0]![0]).toBeInstanceOf(WebhookVerificationError);
      expect((errors[0]![0] as Error).message).toContain('WALLET_WEBHOOK_SECRET');
    },
  );

  test('the default onError logs it as an error naming WALLET_WEBHOOK_SECRET', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { status } = await deliverTo(UNSET, true);
      expect(status).toBe(500);
      expect(error.mock.calls.map((c) => c.map(String).join(' ')).join('\n')).toContain(
        'WALLET_WEBHOOK_SECRET',
      );
    } finally {
      error.mockRestore();
    }
  });

  test('a rotation list of a huge length with no entries is refused at its first hole, copying nothing', () => {
    const list: string[] = [];
    list.length = 2 ** 32 - 1;
    expect(() => verifyWebhook(BODY, SIGNATURE, list)).toThrow(WebhookVerificationError);
  });

  // As verifyWebhook above: every() over a length of 2^32 - 1 visits each hole, a hang at construction.
  test('a rotation list of a huge length with no entries constructs at once, as a missing secret', async () => {
    const list: string[] = [];
    list.length = 2 ** 32 - 1;
    const started = performance.now();
    const { status, json } = await deliverTo(list);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect([status, json]).toMatchObject([500, { error: 'missing_secret' }]);
  });

  test.each([
    ['an empty array', []],
    ['an array with an empty entry', [SECRET, '']],
    // eslint-disable-next-line no-sparse-arrays -- a rotation list with a hole: an entry missing
    ['an array with a hole', [, SECRET]],
    ['a number', 42],
  ])('a secret given but malformed (%s) still throws at construction', (_, secret) => {
    expect(() => create({ secret: secret as unknown as string, onEvent: () => undefined })).toThrow(
      WebhookVerificationError,
    );
  });

  // An async secrets manager's get() without await: 'missing or empty (is WALLET_WEBHOOK_SECRET set?)' sent the merchant to check a variable they never use.
  test('a secret that is a Promise (a missing await) throws at construction, naming it', () => {
    const secret = Promise.resolve(SECRET);
    expect(() => create({ secret: secret as never, onEvent: () => undefined })).toThrow(
      expect.objectContaining({
        reason: 'missing_secret',
        message: expect.stringContaining('is a Promise (a missing await?)'),
      }),
    );
  });

  // readFileSync(path) without 'utf8' gives a Buffer: "missing (is WALLET_WEBHOOK_SECRET set?)" misled.
  test.each([
    [
      'a Buffer',
      Buffer.from(SECRET),
      /^The webhook secret is an instance of Buffer, not a string: read it with readFileSync\(path, 'utf8'\)/,
    ],
    [
      'a rotation entry that is a number',
      [SECRET, 42],
      /^Entry 1 of the webhook secrets is a number, not a string\.$/,
    ],
  ])('a secret that is not text (%s) throws at construction, naming what it is', (_, secret, message) => {
    expect(() => create({ secret: secret as never, onEvent: () => undefined })).toThrow(
      expect.objectContaining({ reason: 'missing_secret', message: expect.stringMatching(message) }),
    );
  });

  // Read from an env or secrets file with its line break, it would refuse every genuine delivery 400.
  test.each([
    ['a line break at its end', `${SECRET}\n`],
    ['a space at its start', ` ${SECRET}`],
    ['a rotation entry ending in CR LF', [SECRET, `${SECRET}\r\n`]],
  ])('a secret with whitespace at an end (%s) throws at construction, saying so', (_, secret) => {
    expect(() => create({ secret, onEvent: () => undefined })).toThrow(
      expect.objectContaining({
        reason: 'missing_secret',
        message: expect.stringMatching(/leading or trailing whitespace.*WALLET_WEBHOOK_SECRET/),
      }),
    );
  });

  // Docker's --env-file and systemd keep the quotes of WALLET_WEBHOOK_SECRET="whsec_…".
  test('a secret wrapped in quotes throws at construction, saying so', () => {
    expect(() => create({ secret: `"${SECRET}"`, onEvent: () => undefined })).toThrow(
      expect.objectContaining({
        reason: 'missing_secret',
        message: expect.stringMatching(/wrapped in quotes.*WALLET_WEBHOOK_SECRET/),
      }),
    );
  });
});

describe.each([
  ['verifyWebhook', verifyWebhook],
  ['verifyWebhookAsync', verifyWebhookAsync],
] as const)('%s with a secret loaded with a line break', (_, verify) => {
  test('refuses the genuine delivery with a mismatch that names the whitespace', async () => {
    const error: unknown = await (async () => verify(BODY, SIGNATURE, `${SECRET}\n`))().catch((e) => e);
    expect(error).toMatchObject({ reason: 'signature_mismatch' });
    expect((error as Error).message).toMatch(/leading or trailing whitespace.*WALLET_WEBHOOK_SECRET/);
  });

  test('refuses the genuine delivery with a mismatch that names quotes around the secret', async () => {
    const error: unknown = await (async () => verify(BODY, SIGNATURE, `'${SECRET}'`))().catch((e) => e);
    expect(error).toMatchObject({ reason: 'signature_mismatch' });
    expect((error as Error).message).toMatch(/wrapped in quotes.*WALLET_WEBHOOK_SECRET/);
  });

  test('refuses a secret that is a Promise (a missing await), naming it', async () => {
    const secret = Promise.resolve(SECRET) as never;
    const error: unknown = await (async () => verify(BODY, SIGNATURE, secret))().catch((e) => e);
    expect(error).toMatchObject({ reason: 'missing_secret' });
    expect((error as Error).message).toContain('is a Promise (a missing await?)');
  });

  test('refuses a Buffer secret by what it is, not as missing', async () => {
    const secret = Buffer.from(SECRET) as never;
    const error: unknown = await (async () => verify(BODY, SIGNATURE, secret))().catch((e) => e);
    expect(error).toMatchObject({ reason: 'missing_secret' });
    expect((error as Error).message).toContain('is an instance of Buffer, not a string');
  });

  // A config loader that types values (YAML, convict) gives a secret of digits as a number: it is still
  // the secret, and an error message goes to logs.
  test.each([
    ['a number', 839201746501928, '839201746501928'],
    ['a bigint in a rotation', [SECRET, 83920174650192837465n], '83920174650192837465'],
  ])('names a secret given as %s by its type, never printing it', async (_, secret, digits) => {
    const error: unknown = await (async () => verify(BODY, SIGNATURE, secret as never))().catch((e) => e);
    expect(error).toMatchObject({ reason: 'missing_secret' });
    expect((error as Error).message).toMatch(/is a (number|bigint), not a string\.$/);
    expect((error as Error).message).not.toContain(digits.slice(0, 12));
  });

  test('a mismatch with a clean secret does not mention whitespace', async () => {
    const error: unknown = await (async () => verify(BODY, SIGNATURE, 'whsec_other'))().catch((e) => e);
    expect(error).toMatchObject({ reason: 'signature_mismatch' });
    expect((error as Error).message).not.toMatch(/whitespace/);
  });
});
