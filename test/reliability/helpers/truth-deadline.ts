/**
 * The deadline campaign (issue 15): random scripts of long Retry-After asks, hangs, 5xx and 200s
 * under random limits, on a fake clock, judged against totalTimeout and maxRetryAfter.
 */
import type { DispatchHandler, Dispatcher } from '../../../src/index.js';
import { vi } from 'vitest';
import { isWalletError, Wallet, type WalletError } from '@wallet/node';
import { paid, TEST_KEY } from '../../helpers/mock-service.js';
import { rng } from './tools.js';

const success = (data: unknown) => ({ status: 'success', message: 'OK', data });

export interface DeadlineFigures {
  calls: number;
  /** Calls that settled after their totalTimeout (fake clock). */
  pastDeadline: number;
  /** Waits longer than maxRetryAfter, or a Retry-After not honoured when one was. */
  overlongWaits: number;
  /** RateLimitErrors ended early on a valid Retry-After without carrying it. */
  missingRetryAfter: number;
  crashes: number;
  longestCallMs: number;
}

type Answer = { status: number; retryAfter?: number } | 'hang';

/** Random scripts of 429/503 with Retry-After, 500s, hangs and 200s under random limits, on a fake clock. */
export async function deadlineCampaign(calls: number, seed: number): Promise<DeadlineFigures> {
  const random = rng(seed);
  const f: DeadlineFigures = {
    calls,
    pastDeadline: 0,
    overlongWaits: 0,
    missingRetryAfter: 0,
    crashes: 0,
    longestCallMs: 0,
  };
  const warm = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: 'https://api.wallet.test',
    dispatcher: script([{ status: 200 }], []),
  });
  await warm.charges.verify('order_1042');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  try {
    for (let i = 0; i < calls; i++) {
      const answers: Answer[] = Array.from({ length: 6 }, () => {
        const r = random();
        if (r < 0.15) return 'hang';
        if (r < 0.75) return { status: r < 0.45 ? 429 : 503, retryAfter: Math.floor(random() * 90) };
        return { status: r < 0.9 ? 500 : 200 };
      });
      const limits = {
        totalTimeout: 1_000 + Math.floor(random() * 59_000),
        timeout: 500 + Math.floor(random() * 29_500),
        maxRetryAfter: Math.floor(random() * 30_000),
        maxRetries: Math.floor(random() * 5),
      };
      const starts: number[] = [];
      const wallet = new Wallet({
        apiKey: TEST_KEY,
        baseUrl: 'https://api.wallet.test',
        dispatcher: script(answers, starts),
        logLevel: 'off',
        ...limits,
      });
      const t0 = performance.now();
      let settled: { error?: unknown; end: number } | undefined;
      wallet.charges.verify('order_1042').then(
        () => (settled = { end: performance.now() }),
        (error: unknown) => (settled = { error, end: performance.now() }),
      );
      while (settled === undefined) await vi.advanceTimersByTimeAsync(50);
      const took = settled.end - t0;
      f.longestCallMs = Math.max(f.longestCallMs, Math.round(took));
      if (took > limits.totalTimeout + 50) f.pastDeadline++;
      for (let k = 1; k < starts.length; k++) {
        const prev = answers[k - 1]!;
        if (prev === 'hang') continue;
        const gap = starts[k]! - starts[k - 1]!;
        const asked = prev.retryAfter === undefined ? undefined : prev.retryAfter * 1000;
        if (asked !== undefined ? gap > asked + 50 || asked > limits.maxRetryAfter : gap > 8_050)
          f.overlongWaits++;
      }
      const error = settled.error as (WalletError & { retryAfter?: number }) | undefined;
      if (error !== undefined && !isWalletError(error)) f.crashes++;
      if (error?.name === 'RateLimitError' && error.retryAfter === undefined) f.missingRetryAfter++;
    }
  } finally {
    vi.useRealTimers();
  }
  return f;
}

function script(answers: readonly Answer[], starts: number[]): Dispatcher {
  let n = 0;
  const dispatcher = {
    dispatch(_options: unknown, handler: DispatchHandler) {
      starts.push(performance.now());
      const answer = answers[Math.min(n++, answers.length - 1)]!;
      queueMicrotask(() => {
        const controller = {
          abort: (reason?: Error) => handler.onResponseError?.(controller, reason ?? new Error('aborted')),
        };
        handler.onRequestStart?.(controller, {});
        if (answer === 'hang') return;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (answer.retryAfter !== undefined) headers['retry-after'] = String(answer.retryAfter);
        handler.onResponseStart?.(controller, answer.status, headers, '');
        const body = answer.status === 200 ? success(paid) : { status: 'error', message: 'busy' };
        handler.onResponseData?.(controller, Buffer.from(JSON.stringify(body)));
        handler.onResponseEnd?.(controller, {});
      });
      return true;
    },
  };
  return dispatcher;
}
