/**
 * A fleet of webhook workers in separate processes, and a stand-in for the service that delivers
 * each event several times at once to random workers and redelivers every non-200 until it gets a
 * 200, as a webhook sender does.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { Agent, request } from 'undici';

import { FLEET_SECRET, type WorkerMessage } from './fleet-protocol.js';

const WORKER = fileURLToPath(new URL('./webhook-worker.ts', import.meta.url));

/** A worker process. */
export interface Worker {
  child: ChildProcess;
  url: string;
  pid: number;
}

/** Every `onEvent` start and finish reported by the fleet, by reference. */
export class Ledger {
  readonly started = new Map<string, number>();
  readonly ran = new Map<string, number>();
  /** Total `onEvent` completions. */
  runs = 0;
  #waiters: [string, () => void][] = [];

  /** Records one message. */
  record(message: WorkerMessage): void {
    if (message.type === 'ready') return;
    const map = message.type === 'started' ? this.started : this.ran;
    map.set(message.reference, (map.get(message.reference) ?? 0) + 1);
    if (message.type === 'ran') this.runs++;
    if (message.type === 'started') {
      for (const [ref, wake] of this.#waiters) if (ref === message.reference) wake();
    }
  }

  /** Resolves once `onEvent` started for `reference`. */
  whenStarted(reference: string): Promise<void> {
    if (this.started.has(reference)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push([reference, resolve]));
  }
}

/** Forks `count` workers (alternating node-redis and ioredis) and waits until each listens. */
export async function startFleet(
  redisUrl: string,
  count: number,
  ledger: Ledger,
  { claimTtl = 60_000, hang = '' }: { claimTtl?: number; hang?: string } = {},
  // Only the first worker hangs on `hang`: the others must be able to handle it after the crash.
): Promise<Worker[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const kind = i % 2 === 0 ? 'redis' : 'ioredis';
      const child = fork(WORKER, [redisUrl, kind, String(claimTtl), i === 0 ? hang : ''], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      return new Promise<Worker>((resolve, reject) => {
        child.once('exit', (code) =>
          reject(new Error(`worker ${i} exited with ${code} before it was ready`)),
        );
        child.on('message', (message: WorkerMessage) => {
          ledger.record(message);
          if (message.type === 'ready') {
            resolve({ child, url: `http://127.0.0.1:${message.port}/`, pid: message.pid });
          }
        });
      });
    }),
  );
}

/** Stops every worker that is still running. */
export async function stopFleet(workers: readonly Worker[]): Promise<void> {
  await Promise.all(
    workers.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** A signed charge.success delivery for `reference`. */
export function delivery(reference: string): { body: string; signature: string } {
  const body = JSON.stringify({
    event: 'charge.success',
    data: { reference, amount: 150_000, customer: { handle: '@ada' } },
  });
  return { body, signature: createHmac('sha512', FLEET_SECRET).update(body).digest('hex') };
}

// A bounded wait per request, so a hung worker fails the test in seconds rather than undici's 300 s.
const dispatcher = new Agent({ connections: 32, keepAliveTimeout: 10_000, headersTimeout: 15_000 });

/** POSTs one delivery; the status, or 0 when the connection failed. */
export async function post(url: string, reference: string): Promise<number> {
  const { body, signature } = delivery(reference);
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wallet-signature': signature },
      body,
      dispatcher,
    });
    await response.body.dump();
    return response.statusCode;
  } catch {
    return 0;
  }
}

/** Counts of the statuses the service saw. */
export type StatusCounts = Record<number, number>;

/** Sends one delivery of `reference` to one instance and resolves to the status it answered. */
export type Sender = (reference: string) => Promise<number>;

/** A sender per worker process, over HTTP. */
export const sendersOf = (workers: readonly Worker[]): Sender[] =>
  workers.map((worker) => (reference) => post(worker.url, reference));

/**
 * Delivers every reference `copies` times at once, each copy to a random instance, redelivering each
 * copy after a non-200 (every `retryMs`, up to `deadlineMs`) until a worker answers 200. At most
 * `parallel` events are in flight.
 */
export async function deliverAll(
  senders: readonly Sender[],
  references: readonly string[],
  { copies = 3, parallel = 48, retryMs = 25, deadlineMs = 60_000 } = {},
): Promise<StatusCounts> {
  const statuses: StatusCounts = {};
  const until = Date.now() + deadlineMs;
  const copy = async (reference: string): Promise<void> => {
    for (;;) {
      const send = senders[Math.floor(Math.random() * senders.length)]!;
      const status = await send(reference);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) return;
      if (Date.now() > until) throw new Error(`${reference} still unacknowledged (last ${status})`);
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  };
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < references.length) {
      const reference = references[next++]!;
      await Promise.all(Array.from({ length: copies }, () => copy(reference)));
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return statuses;
}
