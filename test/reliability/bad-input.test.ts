/**
 * Bad input, across every public function and option: each refusal is a WalletError subclass whose
 * message names the problem, never a TypeError, RangeError or URIError; and nothing reaches the
 * wire (a loopback server counts every request).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWalletError, Wallet } from '@wallet/node';
import { CLIENT_BAD_INPUTS } from './helpers/bad-inputs-client.js';
import { OTHER_BAD_INPUTS } from './helpers/bad-inputs-other.js';
import { sendJson, startServer, type TestServer } from './helpers/server.js';
import { SECRET_KEY, SecretLedger } from './helpers/surfaces.js';
import { report } from './helpers/tools.js';

const TABLE = [...CLIENT_BAD_INPUTS, ...OTHER_BAD_INPUTS];
const NOTHING_THROWN = Symbol('nothing thrown');

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

async function refusalOf(run: () => unknown): Promise<unknown> {
  try {
    const result = run();
    if (isThenable(result)) await result;
  } catch (error) {
    return error;
  }
  return NOTHING_THROWN;
}

describe(`bad input: ${TABLE.length} malformed inputs, each a typed WalletError naming the problem`, () => {
  let server: TestServer;
  let wallet: Wallet;
  const ledger = new SecretLedger();
  const savedEnv = { key: process.env.WALLET_SECRET_KEY, url: process.env.WALLET_BASE_URL };

  beforeAll(async () => {
    delete process.env.WALLET_SECRET_KEY;
    delete process.env.WALLET_BASE_URL;
    server = await startServer((_req, res) => sendJson(res, 200, { status: 'success', data: {} }));
    wallet = new Wallet({ apiKey: SECRET_KEY, baseUrl: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    if (savedEnv.key !== undefined) process.env.WALLET_SECRET_KEY = savedEnv.key;
    if (savedEnv.url !== undefined) process.env.WALLET_BASE_URL = savedEnv.url;
    await wallet.close();
    await server.close();
    report('bad input', {
      inputs: TABLE.length,
      requestsOnTheWire: server.arrived.length,
      secretSurfacesChecked: ledger.checked,
    });
  });

  it('the table covers at least 150 inputs', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(150);
  });

  for (const input of TABLE) {
    it(`${input.fn} ${input.label}: WalletError naming "${input.mention}"`, async () => {
      const error = await refusalOf(() => input.run({ url: server.url, wallet }));
      expect(error, 'expected a refusal').not.toBe(NOTHING_THROWN);
      expect(isWalletError(error), `got ${String(error)}`).toBe(true);
      expect((error as Error).message.toLowerCase()).toContain(input.mention.toLowerCase());
      ledger.error(error, `${input.fn} ${input.label}`);
    });
  }

  it('nothing invalid reached the wire: the server saw no request at all', () => {
    expect(server.arrived).toHaveLength(0);
  });

  it('no refusal repeats the key', () => {
    expect(ledger.leaks).toEqual([]);
  });
});
