// The benchmark: the SDK against raw undici, fetch, stripe-node and openai-node per call, webhooks
// against raw HMAC, imports, cold starts, sockets, heap and installed size, in one run against one
// loopback server. Prints the table and exits 1 when a target is missed.
// Usage: npm run bench            (full form, a few minutes; builds first)
//        node test/bench/run.mjs --short   (the few-second form npm test runs, looser bounds)
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { BASELINE, PEER_PACKAGE, PEERS } from './clients.mjs';
import { coldStart } from './cold-start.mjs';
import { peerInstalled } from '../proofs/peers/load.mjs';
import { footprint } from './footprint.mjs';
import { firstCall, importTimes } from './imports.mjs';
import { checkTargets, format, median, ratio } from './report.mjs';

const form = process.argv.includes('--short') ? 'short' : 'full';
const PLAN = {
  full: {
    rounds: 9,
    window: 1000,
    warmup: 6000,
    peers: true,
    whRounds: 9,
    whOps: 20_000,
    imports: 21,
    first: 7,
    cold: 9,
    coldRows: undefined,
    burst: 20_000,
    flat: [2000, 5, 8],
    extras: true,
  },
  short: {
    rounds: 4,
    window: 200,
    warmup: 1000,
    peers: false,
    whRounds: 5,
    whOps: 10_000,
    imports: 5,
    first: 0,
    cold: 5,
    coldRows: ['global fetch', '@wallet/node'],
    burst: 1000,
    flat: [500, 1, 5],
    extras: false,
  },
}[form];
const CONCURRENCY = 32;
const INFLIGHT = 1000;
const here = (file) => new URL(file, import.meta.url).pathname;

/** A forked child and a way to await its next message. */
function child(file, args, execArgv = []) {
  const proc = fork(here(file), args, { execArgv });
  const queue = [];
  const waiting = [];
  proc.on('message', (m) => (waiting.length ? waiting.shift().resolve(m) : queue.push(m)));
  proc.on('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`${file} ${args[0] ?? ''} exited with ${code}`));
  });
  const next = () =>
    queue.length
      ? Promise.resolve(queue.shift())
      : new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  return { proc, next, ask: (m) => (proc.send(m), next()) };
}

/**
 * Client CPU per call. Clients take turns, one window each per round, in an order that rotates
 * every round; each ratio is taken within a round, so slow drifts in the machine's load hit both
 * of its sides alike, and the median over rounds drops the rounds a burst of load spoiled.
 */
async function cpuPerCall(base) {
  const measured = Object.keys(BASELINE)
    .filter((name) => PLAN.peers || !PEERS.includes(name))
    .filter((name) => !PEER_PACKAGE[name] || peerInstalled(PEER_PACKAGE[name], name));
  const names = [...new Set(measured.flatMap((n) => [BASELINE[n], n]))];
  // Warmed up all at once: only the measured windows need the machine to themselves.
  const clients = Object.fromEntries(
    names.map((n) => [n, child('cpu-client.mjs', [n, base, String(PLAN.warmup)])]),
  );
  await Promise.all(Object.values(clients).map((c) => c.next()));
  const perCall = Object.fromEntries(names.map((n) => [n, []]));
  const rate = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < PLAN.rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      const { cpuUs, rate: perSecond } = await clients[name].ask({
        ms: PLAN.window,
        concurrency: CONCURRENCY,
      });
      perCall[name].push(cpuUs);
      rate[name].push(perSecond);
    }
  }
  for (const c of Object.values(clients)) c.proc.disconnect();
  const against = Object.fromEntries(names.map((n) => [n, BASELINE[n] ?? n]));
  const ratios = Object.fromEntries(names.map((n) => [n, ratio(perCall[n], perCall[against[n]])]));
  return {
    concurrency: CONCURRENCY,
    window: PLAN.window,
    rounds: PLAN.rounds,
    perCall,
    rate,
    ratios,
    against,
  };
}

async function webhooks() {
  const c = child('webhooks.mjs', [String(PLAN.whRounds), String(PLAN.whOps)]);
  const perOp = await c.next();
  const throughput = {
    verifyWebhook: ratio(perOp['raw createHmac'], perOp.verifyWebhook),
    verifyWebhookAsync: ratio(perOp['raw Web Crypto'], perOp.verifyWebhookAsync),
  };
  return { rounds: PLAN.whRounds, perOp, throughput };
}

function imports(base) {
  const samples = importTimes(PLAN.imports);
  const empty = median(samples['empty module'].cpu);
  const over = {
    '@wallet/node': median(samples['@wallet/node'].cpu) - empty,
    '@wallet/node/webhooks': median(samples['@wallet/node/webhooks'].cpu) - empty,
  };
  if (!PLAN.extras) return { runs: PLAN.imports, samples, over };
  const first = firstCall(base, PLAN.first);
  const lazy = median(first.lazy);
  const warm = median(first.warm);
  return { runs: PLAN.imports, samples, over, firstCall: { lazy, warm, extra: lazy - warm } };
}

function load(mode, variant, base, ...args) {
  return child('load.mjs', [mode, variant, base, ...args.map(String)], ['--expose-gc']).next();
}

async function socketsAndHeap(server, base) {
  const burst = async (variant) => {
    await server.ask({ cmd: 'reset' });
    await load('burst', variant, base, PLAN.burst);
    const { opened, peak } = await server.ask({ cmd: 'stats' });
    return { opened, peak };
  };
  const sockets = { calls: PLAN.burst, sdk: await burst('sdk charges.verify') };
  const [calls, warmLoads, loads] = PLAN.flat;
  const heap = { flat: await load('flat', 'sdk charges.verify', base, calls, warmLoads, loads) };
  if (PLAN.extras) {
    sockets.raw = await burst('undici GET');
    heap.inflightCalls = INFLIGHT;
    heap.inflight = {
      sdk: (await load('inflight', 'sdk charges.verify', base, INFLIGHT)).bytesPerCall,
      raw: (await load('inflight', 'undici GET', base, INFLIGHT)).bytesPerCall,
    };
  }
  return { sockets, heap };
}

const server = child('server.mjs', []);
const { port } = await server.next();
const base = `http://127.0.0.1:${port}`;
const started = performance.now();

const results = { cpu: await cpuPerCall(base) };
results.webhooks = await webhooks();
results.imports = imports(base);
results.cold = coldStart(base, PLAN.cold, PLAN.coldRows);
Object.assign(results, await socketsAndHeap(server, base));
results.reconcile = await (await import('./reconcile.mjs')).reconcileBench(base, form);
if (PLAN.extras) results.footprint = footprint();
server.proc.disconnect();

const checks = checkTargets(results, form);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
const machine = `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${seconds} s`;
console.log(format(results, checks, { form, machine }));
const missed = checks.filter((c) => !c.holds);
if (missed.length > 0) {
  console.log(`\n${missed.length} target(s) missed: ${missed.map((c) => c.name).join('; ')}`);
  process.exitCode = 1;
}
