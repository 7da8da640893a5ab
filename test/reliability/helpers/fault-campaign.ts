/**
 * The fault campaign: many POSTs (dispatch and refunds) at high concurrency against a loopback
 * service that, per request and from a seeded RNG, drops the connection before or after acting,
 * answers 502 HTML or 503 JSON, answers after the client's timeout, or answers. The service keeps
 * idempotency as the real one does (a key it has acted on gets the saved answer) and records what
 * it executed per reference, so the merchant-visible truth can be checked call by call.
 */
import type http from 'node:http';
import { isWalletError, Wallet, type ClientOptions } from '@wallet/node';
import { sendJson, startServer, type Arrived } from './server.js';
import { recordingLogger, SecretLedger } from './surfaces.js';
import { SECRET_KEY } from './surfaces.js';
import { pool, rng, seedOf, since } from './tools.js';

export type Fault = 'drop-before' | 'execute-drop' | 'html-502' | 'json-503' | 'late' | 'answer';

// Shares of each fault; a 502 from a gateway comes after the service acted, a 503 before.
// One round fails through the faulty proxy about 0.3% of the time (own 502 or a drop, three times).
const RECOVERY_ROUNDS = 4;

const FAULTS: readonly [Fault, number][] = [
  ['drop-before', 0.12],
  ['execute-drop', 0.12],
  ['html-502', 0.12],
  ['json-503', 0.12],
  ['late', 0.08],
  ['answer', 0.44],
];

export interface CampaignOptions {
  calls: number;
  concurrency: number;
  seed: number;
  /** Per-attempt timeout of the client, ms; a `late` answer comes 1.5× after it. */
  timeout: number;
  maxRetries: number;
}

export interface CampaignFigures {
  calls: number;
  successes: number;
  typedFailures: Record<string, number>;
  untypedErrors: number;
  /** References the service acted on more than once. */
  doubleExecutions: number;
  /** Failed calls the service had executed (the cases where the truth matters most). */
  executedFailures: number;
  /** Failed calls the service had executed whose error did not say `outcomeUnknown: true`. */
  executedButNotUnknown: number;
  /** Failed calls marked unknown whose key provably never reached the service. */
  unknownNeverReached: number;
  /** Failed calls marked unknown that reached it but were never executed (indistinguishable from outside). */
  unknownNotExecuted: number;
  /** Failures without endpoint, attempts or idempotencyKey. */
  missingOutcomeFields: number;
  serverRequests: number;
  retriedWithCarriedKey: number;
  retrySuccesses: number;
  executedExactlyOnceAfterRetry: number;
  secretSurfacesChecked: number;
  secretLeaks: string[];
  stringifyThrows: number;
  elapsedMs: number;
}

function pick(random: () => number): Fault {
  let r = random();
  for (const [fault, share] of FAULTS) {
    if ((r -= share) < 0) return fault;
  }
  return 'answer';
}

const dispatched = (reference: string) => ({
  reference,
  status: 'PENDING_AUTHORIZATION',
  authChannel: 'wallet_push',
  expiresAt: '2026-11-22T10:05:00.000Z',
});
const refunded = (reference: string) => ({
  refundReference: `rf_${reference}`,
  amount: 100_000,
  currency: 'NGN',
  status: 'PROCESSED',
});

/** Runs the campaign, then retries every failure with its carried key against a calm service. */
export async function runFaultCampaign(
  options: CampaignOptions,
  transport: Partial<ClientOptions> = {},
): Promise<CampaignFigures> {
  const started = performance.now();
  const executions = new Map<string, number>();
  const saved = new Map<string, unknown>();
  const reached = new Set<string>();
  const seenPerRef = new Map<string, number>();
  let calm = false;

  const execute = (ref: string, key: string, data: unknown): void => {
    if (saved.has(key)) return;
    saved.set(key, { status: 'success', message: 'OK', data });
    executions.set(ref, (executions.get(ref) ?? 0) + 1);
  };

  const server = await startServer((req: Arrived, res: http.ServerResponse) => {
    const key = String(req.headers['x-idempotency-key'] ?? '');
    const body = JSON.parse(req.body) as { reference: string };
    const ref = body.reference;
    reached.add(key);
    const nth = (seenPerRef.get(ref) ?? 0) + 1;
    seenPerRef.set(ref, nth);
    const data = req.url === '/v1/refunds' ? refunded(ref) : dispatched(ref);
    const fault = calm ? 'answer' : pick(rng(seedOf(options.seed, ref, String(nth))));
    if (fault === 'drop-before') return void req.socket.destroy();
    if (fault === 'json-503') return sendJson(res, 503, { status: 'error', message: 'Service unavailable' });
    execute(ref, key, data);
    if (fault === 'execute-drop') return void req.socket.destroy();
    if (fault === 'html-502') {
      res.writeHead(502, { 'content-type': 'text/html' });
      return void res.end('<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
    }
    if (fault === 'late') {
      setTimeout(() => sendJson(res, 200, saved.get(key)), options.timeout * 1.5);
      return;
    }
    sendJson(res, 200, saved.get(key));
  });

  const { sink, lines } = recordingLogger();
  const wallet = new Wallet({
    apiKey: SECRET_KEY,
    baseUrl: server.url,
    timeout: options.timeout,
    maxRetries: options.maxRetries,
    logger: sink,
    logLevel: 'debug',
    ...transport,
  });
  const ledger = new SecretLedger();
  const failures: { ref: string; i: number; error: unknown }[] = [];
  const figures: CampaignFigures = {
    calls: options.calls,
    successes: 0,
    typedFailures: {},
    untypedErrors: 0,
    doubleExecutions: 0,
    executedFailures: 0,
    executedButNotUnknown: 0,
    unknownNeverReached: 0,
    unknownNotExecuted: 0,
    missingOutcomeFields: 0,
    serverRequests: 0,
    retriedWithCarriedKey: 0,
    retrySuccesses: 0,
    executedExactlyOnceAfterRetry: 0,
    secretSurfacesChecked: 0,
    secretLeaks: [],
    stringifyThrows: 0,
    elapsedMs: 0,
  };
  // Recovery uses its own client with a generous timeout: what it proves is that the carried key
  // never executes twice, not how fast a loaded machine answers.
  const recovery = new Wallet({
    apiKey: SECRET_KEY,
    baseUrl: server.url,
    timeout: 15_000,
    maxRetries: 2,
    logger: sink,
    ...transport,
  });
  const call = (i: number, ref: string, idempotencyKey?: string) => {
    const client = idempotencyKey === undefined ? wallet : recovery;
    const request = idempotencyKey === undefined ? undefined : { idempotencyKey };
    return i % 2 === 0
      ? client.charges.dispatch({ reference: ref, bankId: 'bnk_01', authChannel: 'wallet_push' }, request)
      : client.refunds.create({ reference: ref, amount: 100_000 }, request);
  };

  try {
    await pool(options.calls, options.concurrency, async (i) => {
      const ref = `order_${options.seed}_${i}`;
      try {
        await call(i, ref);
        figures.successes++;
      } catch (error) {
        failures.push({ ref, i, error });
      }
    });
    figures.serverRequests = server.arrived.length;

    for (const { ref, error } of failures) {
      ledger.error(error, `campaign ${ref}`);
      if (!isWalletError(error)) {
        figures.untypedErrors++;
        continue;
      }
      figures.typedFailures[error.name] = (figures.typedFailures[error.name] ?? 0) + 1;
      const e = error as {
        endpoint?: unknown;
        attempts?: unknown;
        idempotencyKey?: unknown;
        outcomeUnknown?: unknown;
      };
      if (
        typeof e.endpoint !== 'string' ||
        typeof e.attempts !== 'number' ||
        typeof e.idempotencyKey !== 'string'
      ) {
        figures.missingOutcomeFields++;
      }
      const executed = (executions.get(ref) ?? 0) > 0;
      if (executed) figures.executedFailures++;
      if (executed && e.outcomeUnknown !== true) figures.executedButNotUnknown++;
      if (e.outcomeUnknown === true && !reached.has(String(e.idempotencyKey))) figures.unknownNeverReached++;
      if (e.outcomeUnknown === true && reached.has(String(e.idempotencyKey)) && !executed) {
        figures.unknownNotExecuted++;
      }
    }

    // Recovery as the README teaches it: the same call again with the carried key, again while it
    // fails (a faulty proxy on the way may fail every attempt of one call; a merchant's job retries).
    calm = true;
    await pool(failures.length, options.concurrency, async (n) => {
      const { ref, i, error } = failures[n]!;
      const key = (error as { idempotencyKey?: unknown }).idempotencyKey;
      if (typeof key !== 'string') return;
      figures.retriedWithCarriedKey++;
      for (let round = 1; round <= RECOVERY_ROUNDS; round++) {
        try {
          await call(i, ref, key);
          figures.retrySuccesses++;
          return;
        } catch (retryError) {
          ledger.error(retryError, `retry ${round} ${ref}`);
        }
      }
    });
    for (let i = 0; i < options.calls; i++) {
      const count = executions.get(`order_${options.seed}_${i}`) ?? 0;
      if (count > 1) figures.doubleExecutions++;
      if (count === 1) figures.executedExactlyOnceAfterRetry++;
    }
  } finally {
    await wallet.close();
    await recovery.close();
    await server.close();
  }
  ledger.surfaces(lines);
  figures.secretSurfacesChecked = ledger.checked;
  figures.secretLeaks = ledger.leaks.slice(0, 5);
  figures.stringifyThrows = ledger.stringifyThrows.length;
  figures.elapsedMs = since(started);
  return figures;
}
