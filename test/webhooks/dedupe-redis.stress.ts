/**
 * Full form of the fleet proof (npm run test:stress): 8 webhook workers in separate processes (4 on
 * node-redis, 4 on ioredis) sharing a real redis-server; 1,000 events, each delivered 3 times at
 * once to random workers and redelivered after every non-200; then a worker SIGKILLed mid-event;
 * then Redis stopped under the fleet.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';

import { Ledger, deliverAll, post, sendersOf, startFleet, stopFleet, type Worker } from '../redis/fleet.js';
import { startRedis, type RedisServer } from '../redis/server.js';

const CLAIM_TTL = 2_000;
let server: RedisServer;
let workers: Worker[] = [];
const ledger = new Ledger();

beforeAll(async () => {
  server = await startRedis();
  workers = await startFleet(server.url, 8, ledger, { claimTtl: CLAIM_TTL, hang: 'order_crash' });
});
afterAll(async () => {
  await stopFleet(workers);
  await server?.stop();
});

test('1,000 events delivered 3 times each, concurrently, across 8 processes: onEvent ran exactly 1,000 times', async () => {
  const references = Array.from({ length: 1_000 }, (_, i) => `order_fleet_${i}`);
  const started = performance.now();
  const statuses = await deliverAll(sendersOf(workers), references, { parallel: 64, retryMs: 20 });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `fleet: 8 processes, 1000 events x 3 deliveries in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(statuses)}; ` +
      `onEvent runs ${ledger.runs}`,
  );
  expect(ledger.runs).toBe(1_000);
  expect(ledger.ran.size).toBe(1_000);
  expect([...ledger.ran.values()].every((n) => n === 1)).toBe(true);
  expect(statuses[200]).toBe(3_000);
  expect(Object.keys(statuses).filter((s) => s !== '200' && s !== '503')).toEqual([]);
  expect(statuses[503] ?? 0).toBeGreaterThan(0); // duplicates did race
});

test('a worker SIGKILLed mid-event: the event is held until its claim expires, then handled once elsewhere', async () => {
  const victim = workers[0]!;
  const others = workers.slice(1);
  void post(victim.url, 'order_crash');
  await ledger.whenStarted('order_crash');
  const killedAt = performance.now();
  victim.child.kill('SIGKILL');
  const early = await deliverAll(sendersOf(others), ['order_crash'], {
    copies: 1,
    retryMs: 100,
    deadlineMs: 20_000,
  });
  const waited = performance.now() - killedAt;
  console.log(
    `crash: redelivery handled ${Math.round(waited)} ms after SIGKILL (claimTtl ${CLAIM_TTL}); statuses ${JSON.stringify(early)}`,
  );
  expect(early[503] ?? 0).toBeGreaterThan(0);
  expect(waited).toBeGreaterThan(CLAIM_TTL - 300);
  expect(ledger.ran.get('order_crash')).toBe(1);
});

test('Redis stopped under the fleet: every delivery answered 503, and onEvent never runs', async () => {
  const alive = workers.slice(1);
  const before = ledger.runs;
  await server.stop();
  const statuses = await Promise.all(
    Array.from({ length: 70 }, (_, i) => post(alive[i % alive.length]!.url, `order_down_${i}`)),
  );
  console.log(`redis down: statuses ${JSON.stringify([...new Set(statuses)])}`);
  expect(statuses.filter((s) => s !== 503)).toEqual([]);
  expect(ledger.runs).toBe(before);
});
