/**
 * Abuse of the loopback sandbox, shared by the reliability test and its stress form (which runs the
 * same scenarios bigger): oversized, malformed and slow requests, and refunds and dispatches racing
 * each other. Each scenario returns what it observed; the tests assert on it.
 */
import { request } from 'node:http';
import { connect } from 'node:net';

import { afterAll, beforeAll, expect } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import type { Sandbox } from '@wallet/node/testing';

import { TEST_KEY, callHttp } from './http-helpers.js';

/** A sandbox on loopback for a whole test file; `url` and `sandbox` are set once it listens. */
export interface AbuseTarget {
  sandbox: Sandbox;
  url: string;
  /** Asserts the server still answers, and answers right. */
  alive(): Promise<void>;
}

/** Starts a loopback sandbox before the file's tests and closes it after them. */
export function abuseTarget(): AbuseTarget {
  const target = {
    sandbox: undefined as unknown as Sandbox,
    url: '',
    alive: async () => {
      const answer = await callHttp(target.url, 'GET', '/v1/charges/verify/order_missing');
      expect(answer.status).toBe(404);
    },
  };
  beforeAll(async () => {
    target.sandbox = createSandbox();
    target.url = (await target.sandbox.listen()).url;
  });
  afterAll(() => target.sandbox.close());
  return target;
}

const AUTH = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };

/** Samples RSS while `run` runs; resolves with its result and the peak growth, MB. */
export async function peakRss<T>(run: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - base) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

/**
 * POSTs `megabytes` MiB to a refund, declared (`content-length`) or chunked, writing as fast as the
 * server reads. Resolves with the status answered, or the socket error if the server cut it first.
 */
export function upload(url: string, megabytes: number, chunked: boolean): Promise<number | string> {
  const { hostname, port } = new URL(url);
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...AUTH };
    if (!chunked) headers['content-length'] = String(megabytes * chunk.length);
    const req = request({ host: hostname, port, method: 'POST', path: '/v1/refunds', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    let sent = 0;
    const write = (): void => {
      while (sent < megabytes) {
        sent += 1;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

/** Sends raw bytes on a fresh connection; resolves with the status line's code, or `closed`. */
export function raw(url: string, bytes: string | Buffer, timeoutMs = 5000): Promise<number | 'closed'> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (data) => (text += data.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      const code = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve(code === undefined ? 'closed' : Number(code));
    });
    socket.on('error', () => {});
    socket.end(bytes);
  });
}

function post(path: string, body: string, extra = ''): string {
  return `POST ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TEST_KEY}\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** Malformed requests of every kind, each with the status a strict server answers. */
export const MALFORMED: [string, string | Buffer, number][] = [
  ['invalid JSON', post('/v1/refunds', '{"reference": "order_1", '), 400],
  ['a JSON array', post('/v1/refunds', '[1,2,3]'), 400],
  ['JSON nested 200,000 deep', post('/v1/refunds', '['.repeat(200_000) + ']'.repeat(200_000)), 400],
  [
    'metadata nested 100,000 deep',
    post(
      '/v1/charges/dispatch',
      `{"reference":"order_1","bankId":"bnk_ada_gtb","authChannel":"wallet_push","metadata":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
    ),
    400,
  ],
  ['a form body', post('/v1/refunds', 'reference=order_1').replace('application/json', 'text/plain'), 400],
  [
    'invalid UTF-8',
    Buffer.concat([
      Buffer.from(post('/v1/refunds', '{"reference":"\u00ff"}').slice(0, -3)),
      Buffer.from([0xc3, 0x28, 0x22, 0x7d]),
    ]),
    404,
  ],
  [
    'bad percent-encoding',
    `GET /v1/charges/verify/%E0%A4%A HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TEST_KEY}\r\nconnection: close\r\n\r\n`,
    400,
  ],
  [
    'a 20 KB header',
    `GET /v1/charges/verify/x HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    431,
  ],
  ['not HTTP at all', 'HELLO SANDBOX\r\n\r\n', 400],
  ['a negative content-length', `POST /v1/refunds HTTP/1.1\r\nhost: x\r\ncontent-length: -5\r\n\r\n`, 400],
  [
    'an idempotency key of 300 characters',
    post('/v1/refunds', '{"reference":"order_1"}', `x-idempotency-key: ${'k'.repeat(300)}\r\n`),
    400,
  ],
  ['a live key', post('/v1/refunds', '{}').replace(TEST_KEY, 'sk_live_abc'), 401],
];

/** What the dripping clients saw: each one's answer status (0: closed without one), and when the last closed. */
export interface SlowClients {
  statuses: number[];
  /** Milliseconds until the server had closed every connection (for the log, never asserted). */
  ms: number;
}

/**
 * Opens `count` connections that send headers declaring `bodyBytes` and then drip a byte of body
 * every `dripMs`: a body that would be complete after `bodyBytes * dripMs` ms. Resolves when the
 * server has closed all of them, with the status each got.
 */
export function slowClients(
  url: string,
  count: number,
  dripMs: number,
  bodyBytes: number,
): Promise<SlowClients> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const closed = Array.from(
    { length: count },
    () =>
      new Promise<number>((resolve) => {
        const socket = connect(Number(port), hostname);
        let answer = '';
        socket.on('error', () => {});
        socket.on('data', (chunk) => (answer += String(chunk)));
        socket.write(
          `POST /v1/refunds HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TEST_KEY}\r\ncontent-type: application/json\r\ncontent-length: ${bodyBytes}\r\n\r\n`,
        );
        const drip = setInterval(() => socket.writable && socket.write('{'), dripMs);
        socket.on('close', () => {
          clearInterval(drip);
          resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0));
        });
      }),
  );
  return Promise.all(closed).then((statuses) => ({ statuses, ms: performance.now() - started }));
}

/** Resolves `@ada` for `reference` and dispatches a push; authorizes it through the control route. */
export async function paid(url: string, reference: string, amount: number): Promise<void> {
  await callHttp(url, 'POST', '/v1/charges/resolve-handle', { body: { handle: '@ada', amount, reference } });
  await callHttp(url, 'POST', '/v1/charges/dispatch', {
    body: { reference, bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
  });
  const answer = await callHttp(url, 'POST', `/_sandbox/charges/${reference}/authorize`, { apiKey: null });
  if (answer.status !== 200) throw new Error(`authorize failed: ${JSON.stringify(answer.body)}`);
}

/** What the racing refunds observed. */
export interface RefundRace {
  /** Sum of the amounts of 200 answers, counting each idempotency key once. */
  refundedByAnswers: number;
  statuses: Record<number, number>;
  replays: number;
}

/**
 * Fires `count` refunds at one paid charge at once. Per ten: eight of random amounts with their own
 * key, one retry of the one before (same key, same body), one reusing an earlier key for another
 * amount (422 for whichever arrives second); and once per hundred, a full refund of what is left.
 */
export async function raceRefunds(
  url: string,
  reference: string,
  count: number,
  seed = 1,
): Promise<RefundRace> {
  let state = seed;
  const rand = (n: number): number => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) % n) + 1;
  // Keys belong to one refund of this charge: the sandbox, as the service, answers a key it has
  // seen with its saved answer, so a key shared with another charge's race would replay that one.
  const calls: { key: string; body: { reference: string; amount?: number } }[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 10;
    const previous = calls[i - 1];
    if (kind === 7 && previous !== undefined) calls.push(previous);
    else if (kind === 8)
      calls.push({ key: `${reference}:refund-${i - 3}`, body: { reference, amount: rand(5000) } });
    else if (i % 100 === 99) calls.push({ key: `${reference}:refund-${i}`, body: { reference } });
    else calls.push({ key: `${reference}:refund-${i}`, body: { reference, amount: rand(5000) } });
  }
  const answers = await Promise.all(
    calls.map((c) => callHttp(url, 'POST', '/v1/refunds', { body: c.body, idempotencyKey: c.key })),
  );
  const statuses: Record<number, number> = {};
  const byKey = new Map<string, number>();
  let replays = 0;
  answers.forEach((answer, i) => {
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (answer.headers.get('idempotent-replayed') === 'true') replays += 1;
    if (answer.status === 200) byKey.set(calls[i]!.key, answer.body.data.amount as number);
  });
  return { refundedByAnswers: [...byKey.values()].reduce((a, b) => a + b, 0), statuses, replays };
}

/**
 * For each reference, resolves and dispatches it, then fires `dispatches` more dispatches (push and
 * QR, own keys: new prompts for the same charge) and `authorizes` authorize controls at once, all
 * references together.
 */
export async function raceDispatches(
  url: string,
  references: string[],
  dispatches: number,
  authorizes: number,
): Promise<void> {
  await Promise.all(
    references.map((reference) =>
      callHttp(url, 'POST', '/v1/charges/resolve-handle', {
        body: { handle: '@ada', amount: 10_000, reference },
      }),
    ),
  );
  await Promise.all(
    references.map((reference) =>
      callHttp(url, 'POST', '/v1/charges/dispatch', {
        body: { reference, bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
      }),
    ),
  );
  const calls = references.flatMap((reference) => [
    ...Array.from({ length: dispatches }, (_, i) =>
      callHttp(url, 'POST', '/v1/charges/dispatch', {
        body: { reference, bankId: 'bnk_ada_gtb', authChannel: i % 2 === 0 ? 'wallet_push' : 'wallet_qr' },
        idempotencyKey: `${reference}-d${i}`,
      }),
    ),
    ...Array.from({ length: authorizes }, () =>
      callHttp(url, 'POST', `/_sandbox/charges/${reference}/authorize`, { apiKey: null }),
    ),
  ]);
  await Promise.all(calls);
}
