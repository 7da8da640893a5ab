// The per-call part of `npm run bench` alone: client CPU per call of the SDK's three calls against
// raw undici dispatch() of the same exchange (the floor), with the bench's own method (each client
// in its own process, clients taking turns in an order that rotates every round, ratios taken
// within a round, medians over rounds). A few seconds, for profiling work; needs `npm run build`.
// Usage: node test/bench/per-call.mjs [rounds=9] [windowMs=1000] [warmupCalls=6000]
import { fork } from 'node:child_process';
import { BASELINE } from './clients.mjs';
import { median, ratio } from './report.mjs';

const [rounds = 9, window = 1000, warmup = 6000] = process.argv.slice(2).map(Number);
const here = (file) => new URL(file, import.meta.url).pathname;
const MEASURED = ['sdk charges.verify', 'sdk charges.dispatch', 'sdk refunds.create'];

function child(file, args) {
  const proc = fork(here(file), args);
  const queue = [];
  const waiting = [];
  proc.on('message', (m) => (waiting.length ? waiting.shift()(m) : queue.push(m)));
  const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r)));
  return { proc, next, ask: (m) => (proc.send(m), next()) };
}

const server = child('server.mjs', []);
const { port } = await server.next();
const base = `http://127.0.0.1:${port}`;
const names = MEASURED.flatMap((n) => [BASELINE[n], n]);
const clients = Object.fromEntries(names.map((n) => [n, child('cpu-client.mjs', [n, base, String(warmup)])]));
await Promise.all(Object.values(clients).map((c) => c.next()));
const perCall = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + r) % names.length];
    const { cpuUs } = await clients[name].ask({ ms: window, concurrency: 32 });
    perCall[name].push(cpuUs);
  }
}
for (const c of Object.values(clients)) c.proc.disconnect();
server.proc.disconnect();

console.log(`per call, ${rounds} rounds of ${window} ms, concurrency 32 (client CPU µs, median)`);
for (const name of MEASURED) {
  const floor = BASELINE[name];
  const r = perCall[name].map((x, i) => x / perCall[floor][i]);
  console.log(
    `${floor.padEnd(30)} ${median(perCall[floor]).toFixed(1).padStart(6)}  | ` +
      `${name.padEnd(22)} ${median(perCall[name]).toFixed(1).padStart(6)}  ` +
      `${ratio(perCall[name], perCall[floor]).toFixed(2)}x  (rounds ${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)})`,
  );
}
