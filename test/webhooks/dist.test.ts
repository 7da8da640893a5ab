/**
 * The built `@wallet/node/webhooks` entry, loaded in a fresh Node process as a merchant would load
 * it: it must load neither undici nor zod (ESM and CommonJS), and it must work.
 */
import { existsSync, statSync, readdirSync } from 'node:fs';

import { beforeAll, describe, expect, test } from 'vitest';

import { modulesLoadedBy, packagesIn, root } from '../helpers/loaded-modules.js';
import { BODY, CHARGE_SUCCESS, SECRET, SIGNATURE } from './helpers.js';

const ESM = `${root}dist/webhooks.js`;
const CJS = `${root}dist/webhooks.cjs`;

interface Run {
  loaded: string[];
  result: unknown;
}

/** Imports `file` in a fresh ESM process, then runs `body` (which sees `mod`) and prints its value. */
function esm(file: string, body: string, before = ''): Run {
  const code = `${before}\nconst mod = await import(${JSON.stringify(file)});\n${body}`;
  const { modules, stdout } = modulesLoadedBy('esm', code);
  return { loaded: modules, result: JSON.parse(stdout) as unknown };
}

/** Requires `file` in a fresh CommonJS process, then runs `body`; lists every module it required. */
function cjs(file: string, body: string): Run {
  const { modules, stdout } = modulesLoadedBy(
    'cjs',
    `const mod = require(${JSON.stringify(file)});\n${body}`,
  );
  return { loaded: modules, result: JSON.parse(stdout) as unknown };
}

const forbidden = (loaded: string[]): string[] =>
  loaded.filter((m) => /(^|[/\\])(undici|zod)([/\\@]|$)/.test(m));

const USE = `
const signed = mod.signWebhook(${JSON.stringify(CHARGE_SUCCESS)}, ${JSON.stringify(SECRET)});
const event = mod.verifyWebhook(signed.body, signed.signature, ${JSON.stringify(SECRET)});
const asyncEvent = await mod.verifyWebhookAsync(${JSON.stringify(BODY)}, ${JSON.stringify(SIGNATURE)}, [${JSON.stringify(SECRET)}]);
let reason;
try { mod.verifyWebhook({}, signed.signature, ${JSON.stringify(SECRET)}); } catch (e) { reason = e.reason; }
// Dedupe stores load no Redis package: the Redis one drives whatever client it is given.
const sent = [];
const store = mod.redisDedupeStore({ sendCommand: async (args) => (sent.push(args[0]), 'OK') });
await store.claim('charge.success:order_1');
await mod.memoryDedupeStore().claim('x');
if (sent[0] !== 'SET') throw new Error('redis store did not use the given client');
console.log(JSON.stringify({ exports: Object.keys(mod).sort(), event, asyncEvent, reason, signature: signed.signature }));
`;

const EXPORTS = [
  'ValidationError',
  'WEBHOOK_SIGNATURE_HEADER',
  'WalletError',
  'WebhookVerificationError',
  'createNodeWebhookHandler',
  'createWebhookHandler',
  'isValidationError',
  'isWalletError',
  'isWebhookVerificationError',
  'memoryDedupeStore',
  'redisDedupeStore',
  'signWebhook',
  'verifyWebhook',
  'verifyWebhookAsync',
];

beforeAll(() => {
  for (const file of [ESM, CJS]) {
    if (!existsSync(file)) {
      throw new Error(
        `${file} is missing: run \`npm run build\` first (npm test builds before the unit tests).`,
      );
    }
  }
  const built = statSync(ESM).mtimeMs;
  const sources = [
    `${root}src/webhooks.ts`,
    ...readdirSync(`${root}src/webhooks`).map((f) => `${root}src/webhooks/${f}`),
  ];
  const newer = sources.filter((f) => statSync(f).mtimeMs > built);
  if (newer.length > 0) {
    throw new Error(`dist/ is older than ${newer.join(', ')}: run \`npm run build\` first.`);
  }
});

describe('built @wallet/node/webhooks', () => {
  test('ESM: loads neither undici nor zod nor any Redis client, and signs, verifies and dedupes', () => {
    const { loaded, result } = esm(ESM, USE);
    // The hook saw the entry itself, so an empty list of forbidden modules means something.
    expect(loaded.some((m) => m.endsWith('/dist/webhooks.js'))).toBe(true);
    expect(forbidden(loaded)).toEqual([]);
    expect(packagesIn(loaded)).toEqual([]);
    expect(result).toEqual({
      exports: EXPORTS,
      event: CHARGE_SUCCESS,
      asyncEvent: CHARGE_SUCCESS,
      reason: 'raw_body_required',
      signature: SIGNATURE,
    });
  });

  test('CommonJS: loads neither undici nor zod nor any Redis client, and signs, verifies and dedupes', () => {
    const { loaded, result } = cjs(CJS, `(async () => {${USE}})();`);
    expect(loaded.some((m) => m.endsWith('/dist/webhooks.cjs'))).toBe(true);
    expect(forbidden(loaded)).toEqual([]);
    expect(packagesIn(loaded)).toEqual([]);
    expect(result).toMatchObject({ exports: EXPORTS, event: CHARGE_SUCCESS, asyncEvent: CHARGE_SUCCESS });
  });

  test('edge runtimes (the Web build): loads no node: module, and the Web Crypto paths work without node:crypto', () => {
    const { loaded, result } = esm(
      `${root}dist/webhooks.web.js`,
      `
      const event = await mod.verifyWebhookAsync(${JSON.stringify(BODY)}, ${JSON.stringify(SIGNATURE)}, ${JSON.stringify(SECRET)});
      const handler = mod.createWebhookHandler({ secret: ${JSON.stringify(SECRET)}, onEvent: () => {} });
      const response = await handler(new Request('https://x.example/', {
        method: 'POST', body: ${JSON.stringify(BODY)}, headers: { 'x-wallet-signature': ${JSON.stringify(SIGNATURE)} },
      }));
      let code;
      try { mod.verifyWebhook(${JSON.stringify(BODY)}, ${JSON.stringify(SIGNATURE)}, ${JSON.stringify(SECRET)}); } catch (e) { code = e.code; }
      console.log(JSON.stringify({ event, status: response.status, code }));
      `,
      // Next.js Edge defines process.getBuiltinModule as a function that throws: the Web build never calls it.
      'process.getBuiltinModule = () => { throw new Error("A Node.js API is used (process.getBuiltinModule)"); };',
    );
    expect(loaded.filter((m) => m.startsWith('node:'))).toEqual([]);
    expect(result).toEqual({ event: CHARGE_SUCCESS, status: 200, code: 'node_crypto_unavailable' });
  });

  test('imports little code: under 64 KB of its own, and no package', () => {
    // A budget of code, not of time: a timed assertion here would measure the machine's neighbours
    // (60 ms seen under a load average of 22). test/webhooks/bench.mjs holds the 2 ms target.
    const { loaded } = esm(ESM, 'console.log("{}");');
    const own = loaded.filter((m) => m.includes('/dist/'));
    expect(own.length).toBeGreaterThan(0);
    const bytes = own.reduce((sum, m) => sum + statSync(new URL(m)).size, 0);
    expect(bytes).toBeLessThan(64 * 1024);
    expect(packagesIn(loaded)).toEqual([]);
  });

  test('the check detects a forbidden module when one is loaded (control)', () => {
    const { loaded } = esm('zod', 'console.log("{}");');
    expect(forbidden(loaded)).not.toEqual([]);
    const required = cjs('zod', 'console.log("{}");');
    expect(packagesIn(required.loaded)).toContain('zod');
  });
});
