/**
 * fast-check properties over parameters, request options, client options, money helpers and
 * webhook inputs: every failure is a WalletError, and nothing invalid reaches the wire (the
 * loopback server checks each request it receives against the contract's wire rules).
 */
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  estimateFee,
  formatNaira,
  isWalletError,
  toKobo,
  toNaira,
  verifyWebhook,
  verifyWebhookAsync,
  Wallet,
} from '@wallet/node';
import { sendJson, startServer, type Arrived, type TestServer } from './server.js';
import { SECRET_KEY, SecretLedger } from './surfaces.js';
import { report } from './tools.js';
import { wireProblem } from './wire-rules.js';
import { extraKeys, headerName, maybe, params, requestOptions, text } from './arbitraries.js';

const WEBHOOK_SECRET = 'whsec_property_suite';
const hmac = (body: string | Uint8Array, secret: string) =>
  createHmac('sha512', secret).update(body).digest('hex');

async function settle(run: () => unknown): Promise<unknown> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error;
  }
}

export function propertySuite(name: string, numRuns: number): void {
  describe(`${name}: ${numRuns} runs per property`, () => {
    let server: TestServer;
    let wallet: Wallet;
    const wireProblems: string[] = [];
    const untyped: string[] = [];
    const ledger = new SecretLedger();
    const note = (error: unknown): void => {
      // Every error's surfaces are checked for the key, up to a budget that keeps the run short.
      if (error !== undefined && ledger.checked < 20_000) ledger.error(error, 'property');
      if (error !== undefined && !isWalletError(error) && untyped.length < 5)
        untyped.push(inspect(error, { depth: 1 }));
    };

    /** True when `run` returns or throws a WalletError (noted either way). */
    const typedOrFine = (run: () => unknown): boolean => {
      try {
        run();
        return true;
      } catch (error) {
        note(error);
        return isWalletError(error);
      }
    };

    // Each property reports only its own untyped throws.
    beforeEach(() => void (untyped.length = 0));
    beforeAll(async () => {
      server = await startServer(
        (req: Arrived, res) => {
          const problem = wireProblem(req, SECRET_KEY);
          if (problem && wireProblems.length < 10) wireProblems.push(problem);
          sendJson(res, 422, { status: 'error', message: 'refused by the test service' });
        },
        { keep: false },
      );
      wallet = new Wallet({ apiKey: SECRET_KEY, baseUrl: server.url, maxRetries: 0, timeout: 5_000 });
    });
    afterAll(async () => {
      await wallet.close();
      await server.close();
      report(name, {
        numRuns,
        requestsOnTheWire: server.requests(),
        wireProblems,
        secretSurfacesChecked: ledger.checked,
      });
    });

    it('any parameters: a WalletError or a valid request, never an untyped throw', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('dispatch', 'resolve', 'refund'),
          params.dispatch,
          params.resolve,
          params.refund,
          extraKeys,
          fc.boolean(),
          async (which, d, r, f, extra, addExtra) => {
            const p = {
              ...(which === 'dispatch' ? d : which === 'resolve' ? r : f),
              ...(addExtra ? extra : {}),
            };
            const error = await settle(() =>
              which === 'dispatch'
                ? wallet.charges.dispatch(p as never)
                : which === 'resolve'
                  ? wallet.charges.resolveHandle(p as never)
                  : wallet.refunds.create(p as never),
            );
            note(error);
            return error === undefined || isWalletError(error);
          },
        ),
        { numRuns },
      );
      expect(untyped).toEqual([]);
    });

    it('any request options and verify references: a WalletError or a valid request', async () => {
      await fc.assert(
        fc.asyncProperty(maybe(text), requestOptions, extraKeys, async (reference, options, extra) => {
          const error = await settle(() =>
            wallet.charges.verify(reference as never, { ...options, ...extra } as never),
          );
          const post = await settle(() => wallet.refunds.create({ reference: 'order_1' }, options as never));
          note(error);
          note(post);
          return (error === undefined || isWalletError(error)) && (post === undefined || isWalletError(post));
        }),
        { numRuns },
      );
      expect(untyped).toEqual([]);
    });

    it('nothing invalid reached the wire (checked request by request on the server)', () => {
      expect(server.requests()).toBeGreaterThan(0);
      expect(wireProblems).toEqual([]);
    });

    it('any client options: constructs, or throws a WalletError', () => {
      fc.assert(
        fc.property(
          fc.record(
            {
              timeout: maybe(fc.integer({ min: 1, max: 60_000 })),
              maxRetries: maybe(fc.nat(10)),
              logLevel: maybe(fc.constantFrom('debug', 'info', 'warn', 'error', 'off')),
              defaultHeaders: maybe(fc.dictionary(headerName, fc.string({ maxLength: 10 }), { maxKeys: 2 })),
              appInfo: maybe(fc.record({ name: text })),
              maxConnections: maybe(fc.integer({ min: 1, max: 256 })),
            },
            { requiredKeys: [] },
          ),
          extraKeys,
          (options, extra) =>
            typedOrFine(
              () => new Wallet({ apiKey: SECRET_KEY, baseUrl: server.url, ...options, ...extra } as never),
            ),
        ),
        { numRuns },
      );
      expect(untyped).toEqual([]);
    });

    it('money helpers on anything: a value or a WalletError; toKobo is exact on two decimals', () => {
      fc.assert(
        fc.property(fc.anything(), fc.anything(), (value, options) => {
          return [
            () => toKobo(value as never),
            () => toNaira(value as never),
            () => estimateFee(value as never),
            () => formatNaira(value as never, options as never),
          ].every(typedOrFine);
        }),
        { numRuns },
      );
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 2 ** 50 }),
          (kobo) => toKobo((kobo / 100).toFixed(2)) === kobo && toNaira(kobo) === kobo / 100,
        ),
        { numRuns },
      );
      expect(untyped).toEqual([]);
    });

    it('webhook inputs: accepted only with the exact signature of the exact bytes, else a WalletError', async () => {
      const body = fc.oneof(
        fc.string(),
        fc.string({ unit: 'binary' }),
        fc.uint8Array({ maxLength: 64 }),
        fc.json(),
        fc.anything(),
      );
      await fc.assert(
        fc.asyncProperty(
          body,
          fc.oneof(fc.constant('valid'), fc.string(), fc.anything()),
          fc.oneof(fc.constant(WEBHOOK_SECRET), fc.anything()),
          async (raw, sig, secret) => {
            const bytes = typeof raw === 'string' || raw instanceof Uint8Array ? raw : undefined;
            const signature = sig === 'valid' && bytes !== undefined ? hmac(bytes, WEBHOOK_SECRET) : sig;
            const exact =
              bytes !== undefined && secret === WEBHOOK_SECRET && signature === hmac(bytes, WEBHOOK_SECRET);
            for (const verify of [verifyWebhook, verifyWebhookAsync]) {
              const error = await settle(() => verify(raw as never, signature as never, secret as never));
              note(error);
              if (error !== undefined && !isWalletError(error)) return false;
              if (error === undefined && !exact) return false;
            }
            return true;
          },
        ),
        { numRuns },
      );
      expect(untyped).toEqual([]);
    });

    it('webhook handler options on anything: a handler or a WalletError', () => {
      fc.assert(
        fc.property(
          fc.record(
            {
              secret: maybe(fc.string({ minLength: 1 })),
              onEvent: maybe(fc.constant(() => undefined)),
              maxBodyBytes: maybe(fc.integer({ min: 1 })),
              bodyTimeout: maybe(fc.integer({ min: 1, max: 60_000 })),
            },
            { requiredKeys: [] },
          ),
          extraKeys,
          (options, extra) => typedOrFine(() => createWebhookHandler({ ...options, ...extra } as never)),
        ),
        { numRuns },
      );
      expect(untyped).toEqual([]);
    });

    it('no error from any property shows the key on any surface', () => {
      expect(ledger.checked).toBeGreaterThan(0);
      expect(ledger.leaks).toEqual([]);
    });
  });
}
