/** The development server's log: one line per request and per delivery attempt, off by default, never forged. */
import { afterEach, describe, expect, it, vi } from 'vitest';

import { callHttp, callSandbox, resolveAndDispatch } from './http-helpers.js';
import { authorizeAndSettle, deliveringTo, startReceiver } from './receiver.js';
import type { Receiver } from './receiver.js';
import { trackSandboxes } from './tracked.js';

const track = trackSandboxes();
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function recorder(): { lines: string[]; logger: { info(l: string): void; warn(l: string): void } } {
  const lines: string[] = [];
  return { lines, logger: { info: (l) => lines.push(`info ${l}`), warn: (l) => lines.push(`warn ${l}`) } };
}

const TIME = String.raw`\d\d:\d\d:\d\d\.\d{3}`;

describe('the development server log', () => {
  it('writes one line per request: time, method, path, status, idempotency key, replayed, duration', async () => {
    const { lines, logger } = recorder();
    const sandbox = track({ logger });
    const { url } = await sandbox.listen();
    const body = { handle: '@ada', amount: 500_000, reference: 'order_log' };
    await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body, idempotencyKey: 'key-1' });
    await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body, idempotencyKey: 'key-1' });
    await callHttp(url, 'GET', '/v1/charges/verify/nope');
    await callHttp(url, 'POST', '/_sandbox/charges/nope/expire', { apiKey: null });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(`^info ${TIME} POST /v1/charges/resolve-handle 200 key=key-1 \\d+ms$`),
    );
    expect(lines[1]).toMatch(
      new RegExp(`^info ${TIME} POST /v1/charges/resolve-handle 200 key=key-1 replayed \\d+ms$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^info ${TIME} GET /v1/charges/verify/nope 404 \\d+ms$`));
  });

  it('writes one line per delivery attempt, with the next retry, while authorize answers after the first', async () => {
    receiver = await startReceiver({ failFirst: 1 });
    const { lines, logger } = recorder();
    const sandbox = track({
      logger,
      ...deliveringTo(receiver.url, { attempts: 3, delayMs: 200, timeoutMs: 1000 }),
    });
    await resolveAndDispatch(sandbox, 'order_hook', 500_000);
    lines.length = 0;
    const { webhook } = await sandbox.authorize('order_hook');
    expect(lines[0]).toMatch(new RegExp(`^info ${TIME} customer authorize order_hook: SUCCESS$`));
    lines.shift();
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warn ${TIME} webhook charge.success order_hook -> ${receiver.url} 500 attempt 1/3 \\d+ms, next retry in \\d+ms \\(${TIME}\\)$`,
        ),
      ),
    ]);
    expect(sandbox.deliveries[0]?.nextRetryAt).not.toBeNull();
    await webhook?.settled;
    expect(lines[1]).toMatch(/^info .* 200 attempt 2\/3 \d+ms, delivered$/);
  });

  it('gives the whole wait before the next retry, on a stopped clock too', async () => {
    receiver = await startReceiver({ hangFirst: 1 });
    const { lines, logger } = recorder();
    const sandbox = track({
      logger,
      clock: 'manual',
      ...deliveringTo(receiver.url, { attempts: 2, delayMs: 300, timeoutMs: 100 }),
    });
    await resolveAndDispatch(sandbox, 'order_slow', 100_000);
    await authorizeAndSettle(sandbox, 'order_slow');
    // The attempt took its 100 ms timeout; the retry still waits its full 300 ms after it.
    expect(lines.find((line) => line.includes('attempt 1/2'))).toMatch(/, next retry in 300ms \(/);
  });

  it('an async logger that rejects (its log service down) loses its lines, never leaves a rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.prependListener('unhandledRejection', onUnhandled);
    try {
      let lines = 0;
      // As a log service client's methods are: they return a promise (typed void, as SandboxLogger's).
      const send = (() => {
        lines++;
        return Promise.reject(new Error('log service unavailable'));
      }) as () => void;
      const sandbox = track({ logger: { info: send, warn: send } });
      const { url } = await sandbox.listen();
      const answer = await callHttp(url, 'GET', '/v1/charges/verify/nope');
      expect(answer.status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lines).toBeGreaterThan(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('says when it gives up on an endpoint', async () => {
    const closed = await startReceiver();
    await closed.close();
    const { lines, logger } = recorder();
    const sandbox = track({
      logger,
      ...deliveringTo(closed.url, { attempts: 2, delayMs: 1, timeoutMs: 1000 }),
    });
    await resolveAndDispatch(sandbox, 'order_down', 100_000);
    await authorizeAndSettle(sandbox, 'order_down');
    expect(lines.at(-1)).toMatch(/ ECONNREFUSED attempt 2\/2 \d+ms, giving up$/);
  });

  it('logs while a listen({ logger }) server runs, and stops when it closes', async () => {
    const { lines, logger } = recorder();
    const sandbox = track();
    const server = await sandbox.listen({ logger });
    await callHttp(server.url, 'GET', '/v1/charges/verify/during');
    await server.close();
    await callSandbox(sandbox, 'GET', '/v1/charges/verify/after');
    expect(lines).toEqual([expect.stringMatching(/ GET \/v1\/charges\/verify\/during 404 \d+ms$/)]);
  });

  it('is off by default: a sandbox without a logger writes nothing to the console or stdout', async () => {
    const writes: unknown[] = [];
    const spies = [
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
        vi.spyOn(console, name).mockImplementation((...args) => void writes.push(args)),
      ),
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (writes.push(chunk), true)),
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (writes.push(chunk), true)),
    ];
    try {
      const sandbox = track();
      const { url } = await sandbox.listen();
      await resolveAndDispatch(sandbox, 'order_quiet', 100_000);
      await callHttp(url, 'GET', '/v1/charges/verify/order_quiet');
      await sandbox.authorize('order_quiet');
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
    expect(writes).toEqual([]);
  });

  it('a logger that throws costs a line, not the request', async () => {
    let calls = 0;
    const sandbox = track({
      logger: {
        info: () => {
          calls += 1;
          throw new Error('disk full');
        },
        warn: () => {},
      },
    });
    const answer = await callSandbox(sandbox, 'GET', '/v1/charges/verify/nope');
    expect(answer.status).toBe(404);
    expect(calls).toBe(1);
  });

  it('escapes control characters from requests in every line, so a reference cannot forge one', async () => {
    const { lines, logger } = recorder();
    receiver = await startReceiver();
    const sandbox = track({ logger, ...deliveringTo(receiver.url, { attempts: 1, timeoutMs: 1000 }) });
    const { url } = await sandbox.listen();
    const forged = 'order_x\u001b[2K\r12:00:00.000 customer authorize order_1: SUCCESS\u2028\u202e\u0085';
    await resolveAndDispatch(sandbox, forged, 100_000);
    await callHttp(url, 'POST', `/_sandbox/charges/${encodeURIComponent(forged)}/authorize`, {
      apiKey: null,
    });
    await callHttp(url, 'GET', `/v1/charges/verify/${encodeURIComponent(forged)}`, {
      idempotencyKey: 'k\u0085\u00a0',
    });
    await sandbox.decline(forged).catch(() => undefined);
    sandbox.seed([{ reference: `${forged}_2`, amount: 1, status: 'FAILED' }]);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) {
      expect(line).not.toMatch(
        // eslint-disable-next-line no-control-regex -- no control character may reach a log line.
        /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
      );
    }
    expect(lines).toContainEqual(
      expect.stringContaining('customer authorize order_x\\x1b[2K\\x0d12:00:00.000 customer authorize'),
    );
    expect(
      lines.some((line) => line.includes('-> ') && line.includes('webhook charge.success order_x\\x1b')),
    ).toBe(true);
  });
});
