/**
 * The "truth about money" campaigns (issue 15), wire side: redirects after acting or not, compressed
 * and hostile bodies (bombs, corrupt, unknown codings), judged call by call against what the
 * service did. Deadlines are in truth-deadline.ts.
 */
import type http from 'node:http';
import zlib from 'node:zlib';
import { isWalletError, type ClientOptions } from '@wallet/node';
import { json, loopback } from '../../helpers/loopback.js';
import { paid } from '../../helpers/mock-service.js';
import { pool, rng } from './tools.js';

const success = (data: unknown) => ({ status: 'success', message: 'OK', data });
const refunded = { refundReference: 'rfd_1', amount: 100, currency: 'NGN', status: 'PROCESSED' };

export interface RedirectFigures {
  calls: number;
  followed: number;
  /** Calls the service acted on whose error said outcomeUnknown: false (or that reported nothing). */
  outcomeLies: number;
  /** Calls the service never acted on that still claimed success. */
  falseSuccesses: number;
  crashes: number;
  byCode: Record<string, number>;
}

/** POSTs answered 303 after acting, other 3xx before acting, drops and 200s, from a seeded RNG. */
export async function redirectCampaign(
  calls: number,
  seed: number,
  transport: ClientOptions,
): Promise<RedirectFigures> {
  const random = rng(seed);
  // An idempotent service: a key it acted on gets its saved success, as the spec says.
  const executed = new Set<string>();
  let followed = 0;
  const elsewhere = await loopback((_req, res) => {
    followed++;
    json(res, 200, success(refunded));
  });
  const server = await loopback((req: http.IncomingMessage, res: http.ServerResponse) => {
    const key = String(req.headers['x-idempotency-key']);
    const roll = random();
    const act = () => executed.add(key);
    if (executed.has(key)) json(res, 200, success(refunded));
    else if (roll < 0.2) {
      act();
      res.writeHead(303, { location: `${elsewhere.url}/v1/refunds/x?token=t` }).end();
    } else if (roll < 0.4) {
      res
        .writeHead([301, 302, 307, 308][Math.floor(random() * 4)]!, {
          location: `${elsewhere.url}/v1/refunds`,
        })
        .end();
    } else if (roll < 0.55) {
      act();
      req.socket.destroy();
    } else {
      act();
      json(res, 200, success(refunded));
    }
  });
  const wallet = server.wallet({ ...transport, maxRetries: 2, logLevel: 'off' });
  const f: RedirectFigures = {
    calls,
    followed: 0,
    outcomeLies: 0,
    falseSuccesses: 0,
    crashes: 0,
    byCode: {},
  };
  await pool(calls, 16, async (i) => {
    const key = `rk_${seed}_${i}`;
    try {
      await wallet.refunds.create({ reference: 'order_1', amount: 100 }, { idempotencyKey: key });
      f.byCode.success = (f.byCode.success ?? 0) + 1;
      if (!executed.has(key)) f.falseSuccesses++;
    } catch (error) {
      if (!isWalletError(error)) return void f.crashes++;
      f.byCode[error.code] = (f.byCode[error.code] ?? 0) + 1;
      if (executed.has(key) && !error.outcomeUnknown) f.outcomeLies++;
    }
  });
  f.followed = followed;
  await server.close();
  await elsewhere.close();
  return f;
}

export interface EncodingFigures {
  calls: number;
  /** Calls that ended other than as the case says (wrong data, wrong error class). */
  wrong: number;
  crashes: number;
  outcomeLies: number;
  rssGrowthMiB: number;
  byCase: Record<string, number>;
}

const BODY = Buffer.from(JSON.stringify(success(paid)));
interface Case {
  name: string;
  coding: string;
  body: Buffer;
  status: number;
  expect: string;
}
let built: Case[] | undefined;
// Built on first use: 128 MiB of zeros packed once, a few hundred KiB on the wire.
const cases = (): Case[] => (built ??= buildCases());
function buildCases(): Case[] {
  const ZEROS = Buffer.alloc(128 * 1024 * 1024);
  const brotli = (b: Buffer) =>
    zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
  return [
    { name: 'gzip', coding: 'gzip', body: zlib.gzipSync(BODY), status: 200, expect: 'ok' },
    { name: 'deflate', coding: 'deflate', body: zlib.deflateSync(BODY), status: 200, expect: 'ok' },
    { name: 'raw deflate', coding: 'deflate', body: zlib.deflateRawSync(BODY), status: 200, expect: 'ok' },
    { name: 'br', coding: 'br', body: zlib.brotliCompressSync(BODY), status: 200, expect: 'ok' },
    {
      name: 'gzip bomb 128 MiB',
      coding: 'gzip',
      body: zlib.gzipSync(ZEROS),
      status: 200,
      expect: 'ResponseTooLargeError',
    },
    {
      name: 'br bomb 128 MiB',
      coding: 'br',
      body: brotli(ZEROS),
      status: 200,
      expect: 'ResponseTooLargeError',
    },
    {
      name: 'gzip bomb 404',
      coding: 'gzip',
      body: zlib.gzipSync(ZEROS),
      status: 404,
      expect: 'ResponseTooLargeError',
    },
    {
      name: 'gzipped 404',
      coding: 'gzip',
      body: zlib.gzipSync('{"status":"error","message":"Unknown"}'),
      status: 404,
      expect: 'NotFoundError',
    },
    { name: 'unknown coding', coding: 'snappy', body: BODY, status: 200, expect: 'ResponseValidationError' },
  ];
}

/** POSTs and GETs answered with each case in turn, on one transport. */
export async function encodingCampaign(
  calls: number,
  transport: ClientOptions,
  corrupt: boolean,
): Promise<EncodingFigures> {
  const all = corrupt
    ? [
        ...cases(),
        {
          name: 'corrupt gzip',
          coding: 'gzip',
          body: Buffer.from('junk, not gzip'),
          status: 200,
          expect: 'ResponseValidationError',
        },
      ]
    : cases();
  const server = await loopback((req, res) => {
    const c = all[Number(req.headers['x-case'])]!;
    res.writeHead(c.status, { 'content-type': 'application/json', 'content-encoding': c.coding });
    res.end(c.body);
  });
  const f: EncodingFigures = { calls, wrong: 0, crashes: 0, outcomeLies: 0, rssGrowthMiB: 0, byCase: {} };
  const before = process.memoryUsage().rss;
  await pool(calls, 8, async (i) => {
    const index = i % all.length;
    const c = all[index]!;
    const wallet = server.wallet({
      ...transport,
      maxRetries: 0,
      logLevel: 'off',
      defaultHeaders: { 'x-case': String(index) },
    });
    const post = i % 2 === 0;
    try {
      const data = post
        ? await wallet.refunds.create({ reference: 'order_1042' })
        : await wallet.charges.verify('order_1042');
      if (c.expect !== 'ok' || (!post && (data as { reference?: unknown }).reference !== 'order_1042'))
        f.wrong++;
      f.byCase[c.name] = (f.byCase[c.name] ?? 0) + 1;
    } catch (error) {
      if (!isWalletError(error)) return void f.crashes++;
      const e = error;
      // A refund answered 2xx with the paid transaction is a ResponseValidationError, not a case failure.
      const fine = e.name === c.expect || (post && c.expect === 'ok' && e.name === 'ResponseValidationError');
      if (!fine) f.wrong++;
      if (post && c.status === 200 && e.name !== 'ValidationError' && !e.outcomeUnknown) f.outcomeLies++;
      f.byCase[c.name] = (f.byCase[c.name] ?? 0) + 1;
    }
    await wallet.close();
  });
  f.rssGrowthMiB = Math.round((process.memoryUsage().rss - before) / 1024 / 1024);
  await server.close();
  return f;
}
