/**
 * The "aborts logged" class of issue 15: calls ended by `AbortSignal.timeout()` or by
 * `controller.abort(reason)` (no reason, a DOMException, an Error, a string, an object carrying
 * the key) at random points: queued, sent, the service acting, the body arriving, a retry's wait.
 * Signals are shared by several calls at once. Every error is printed the ways a merchant logs it
 * (`console.error`, `util.inspect` at any depth with hidden fields, `JSON.stringify`); a throw is a
 * crash, the key in any form on any surface a leak, an executed POST reported with
 * `outcomeUnknown: false` an outcome lie. The service keeps idempotency as the real one does.
 */
import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { inspect } from 'node:util';
import type http from 'node:http';
import { Wallet, type ClientOptions } from '@wallet/node';
import { sendJson, startServer, type Arrived } from './server.js';
import { errorSurfaces, keyFormIn, SECRET_KEY } from './surfaces.js';
import { pool, rng } from './tools.js';

/** The counts of one campaign. */
export interface AbortFigures {
  calls: number;
  aborted: number;
  otherErrors: number;
  successes: number;
  /** A reference the service acted on more than once. */
  doubleExecutions: number;
  /** A POST the service acted on, whose error said `outcomeUnknown: false`. */
  outcomeLies: number;
  /** The key (in any form) on a printed or inspected surface. */
  leaks: number;
  /** Printing the error threw. */
  crashes: number;
  /** MaxListenersExceededWarning and other process warnings while it ran. */
  warnings: number;
  firstProblem: string;
}

type Reason = () => unknown;
const REASONS: readonly Reason[] = [
  () => undefined,
  () => new DOMException('stopped by the merchant', 'AbortError'),
  () => new Error('shutting down'),
  () => 'user closed the page',
  () => ({ why: 'cancelled', authorization: `Bearer ${SECRET_KEY}` }),
  () => new DOMException(`timed out with ${SECRET_KEY}`, 'TimeoutError'),
];

function printAll(error: unknown): string {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (chunk: Buffer) => (out += chunk.toString()));
  new Console({ stdout: stream, stderr: stream }).error(error);
  return [out, inspect(error, { depth: Infinity, showHidden: true }), JSON.stringify(error)].join('\n');
}

/** `calls` calls from `seed` through `transport`, `sharing` calls to each signal. */
export async function abortCampaign(
  calls: number,
  seed: number,
  transport: Partial<ClientOptions>,
  sharing = 8,
): Promise<AbortFigures> {
  const random = rng(seed);
  const figures: AbortFigures = {
    calls,
    aborted: 0,
    otherErrors: 0,
    successes: 0,
    doubleExecutions: 0,
    outcomeLies: 0,
    leaks: 0,
    crashes: 0,
    warnings: 0,
    firstProblem: '',
  };
  const problem = (what: string) => void (figures.firstProblem ||= what);
  const saved = new Map<string, unknown>();
  const executed = new Map<string, number>();
  const server = await startServer((req: Arrived, res: http.ServerResponse) => {
    const key = String(req.headers['x-idempotency-key'] ?? '');
    const n = Number(/_(\d+)$/.exec(req.url)?.[1] ?? /"order_a_(\d+)"/.exec(req.body)?.[1] ?? 0);
    const fate = rng(seed ^ (n * 2_654_435_761))();
    const act = () => {
      if (req.method !== 'POST' || saved.has(key)) return;
      const { reference } = JSON.parse(req.body) as { reference: string };
      saved.set(key, reference);
      executed.set(reference, (executed.get(reference) ?? 0) + 1);
    };
    const answer = () => {
      if (res.destroyed) return;
      if (req.method === 'GET') return sendJson(res, 200, { status: 'error', message: 'x' });
      const { reference } = JSON.parse(req.body) as { reference: string };
      sendJson(res, 200, {
        status: 'success',
        data: { refundReference: `rf_${reference}`, amount: 100_000, currency: 'NGN', status: 'PROCESSED' },
      });
    };
    if (fate < 0.15) return void setTimeout(answer, 5);
    if (fate < 0.3)
      return void sendJson(res, 503, { status: 'error', message: 'busy' }, { 'retry-after': '1' });
    if (fate < 0.55) return void (act(), setTimeout(answer, 40 + fate * 200)); // acts, answers late
    if (fate < 0.7) return void setTimeout(() => (act(), answer()), 60); // acts late
    if (fate < 0.85) {
      act(); // acts, then drips its answer
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    // Never answers, never acts.
  });

  const onWarning = (warning: Error) => {
    figures.warnings++;
    problem(`process warning: ${warning.name}: ${warning.message}`);
  };
  process.on('warning', onWarning);
  const wallet = new Wallet({
    apiKey: SECRET_KEY,
    baseUrl: server.url,
    maxRetries: 2,
    timeout: 2_000,
    maxConnections: 16,
    ...transport,
  });
  try {
    const groups = Math.ceil(calls / sharing);
    await pool(groups, 8, async (g) => {
      const controller = new AbortController();
      const useTimeout = random() < 0.4;
      const at = 5 + Math.floor(random() * 250);
      const signal = useTimeout ? AbortSignal.timeout(at) : controller.signal;
      const reason = REASONS[Math.floor(random() * REASONS.length)]!;
      const timer = useTimeout ? undefined : setTimeout(() => controller.abort(reason()), at);
      const members = Array.from(
        { length: Math.min(sharing, calls - g * sharing) },
        (_, k) => g * sharing + k,
      );
      await Promise.all(
        members.map(async (i) => {
          const reference = `order_a_${i}`;
          const error = await wallet.refunds.create({ reference, amount: 100_000 }, { signal }).then(
            () => undefined,
            (e: unknown) => e,
          );
          if (error === undefined) return void figures.successes++;
          const e = error as { name?: unknown; outcomeUnknown?: unknown };
          if (e.name === 'RequestAbortedError' || e.name === 'ConnectionTimeoutError') figures.aborted++;
          else figures.otherErrors++;
          let text: string;
          try {
            text = printAll(error);
          } catch (crash) {
            figures.crashes++;
            return problem(`printing the error of ${reference} threw ${String(crash)}`);
          }
          for (const surface of [{ where: 'printed', text }, ...errorSurfaces(error, reference)]) {
            const found = keyFormIn(surface.text);
            if (found === undefined) continue;
            figures.leaks++;
            return problem(`${reference}: ${found} in ${surface.where}`);
          }
          // Give the service time to act on what it already had before judging the outcome.
          await new Promise((resolve) => setTimeout(resolve, 400));
          if ((executed.get(reference) ?? 0) > 0 && e.outcomeUnknown !== true) {
            figures.outcomeLies++;
            problem(`${reference} was refunded, but its ${String(e.name)} said outcomeUnknown: false`);
          }
        }),
      );
      clearTimeout(timer);
    });
    for (const count of executed.values()) if (count > 1) figures.doubleExecutions++;
  } finally {
    process.off('warning', onWarning);
    await wallet.close();
    await server.close();
  }
  return figures;
}
