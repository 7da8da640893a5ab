// The per-call part of `npm run bench` alone: client CPU per call of the SDK's three calls against
// raw undici dispatch() of the same exchange (the floor), with the bench's own method (each client
// in its own process, clients taking turns in an order that rotates every round, ratios taken
// within a round, medians over rounds). A few seconds, for profiling work; needs `npm run build`.
// With `reuse`, each floor also answers once undici has freed its socket (as the SDK's own Agent
// does: one socket per caller instead of two), so the ratio is the SDK's own work alone.
// Usage: node test/bench/per-call.mjs [rounds=9] [windowMs=1000] [warmupCalls=6000] [reuse]
import { fork } from 'node:child_process';
import { BASELINE } from './clients.mjs';
import { median, ratio, spread } from './report.mjs';

const [rounds = 9, window = 1000, warmup = 6000] = process.argv.slice(2, 5).map(Number);
const reuse = process.argv[5] === 'reuse';
const floorOf = (name) => (reuse ? `${BASELINE[name]}, socket reused` : BASELINE[name]);
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
const names = MEASURED.flatMap((n) => [floorOf(n), n]);
const clients = Object.fromEntries(names.map((n) => [n, child('cpu-client.mjs', [n, base, String(warmup)])]));
await Promise.all(Object.values(clients).map((c) => c.next()));
const perCall = Object.fromEntries(names.map((n) => [n, []]));
const rate = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + r) % names.length];
    const { cpuUs, rate: perSecond } = await clients[name].ask({ ms: window, concurrency: 32 });
    perCall[name].push(cpuUs);
    rate[name].push(perSecond);
  }
}
for (const c of Object.values(clients)) c.proc.disconnect();
server.proc.disconnect();

// The same table as the bench's own per-call part.
const rows = names.map((name) => {
  const floor = MEASURED.includes(name) ? floorOf(name) : name;
  const r = ratio(perCall[name], perCall[floor]);
  return [
    name,
    median(perCall[name]).toFixed(1),
    spread(perCall[name]),
    String(Math.round(median(rate[name]))),
    `${r.toFixed(2)}x`,
    floor,
  ];
});
const header = ['client', 'µs/call', 'spread', 'calls/s', 'ratio', 'vs'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(
  `Client CPU per call, concurrency 32, ${rounds} rounds of ${window} ms, each client in its own process; ` +
    'ratio: median of the per-round ratios',
);
console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'));
