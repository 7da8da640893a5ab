// Cold start: what a serverless host's first request pays. Each sample is a fresh Node process that
// makes one verify call against the bench's loopback server and reports `performance.now()` (ms since
// the process started), its CPU time so far and its RSS once the parsed result is in hand. An empty process of the same
// module system, sampled in the same interleaved rounds, is subtracted, so Node's own start-up
// cancels out. Median of the runs, ESM and CommonJS, each client written the way a merchant would.
// A baseline whose package is not installed (stripe lives in the peers' install) is skipped with a
// line saying so, never failed. `npm run bench` runs it; alone, after a build:
//   node test/bench/cold-start.mjs [runs=9]      (prints the table of docs/performance.md)
import { fork, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { peerDir } from '../proofs/peers/load.mjs';
import { coldTable, median } from './report.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The peer SDKs live in their own install (`npm run bench:peers`): their samples run from there.
const peers = fileURLToPath(new URL('../proofs/peers/', import.meta.url));
const KEY = 'sk_test_bench_0123456789abcdef';
const PATH = '/v1/charges/verify/order_1042';
const HEADERS = { authorization: `Bearer ${KEY}`, accept: 'application/json', 'user-agent': 'bench/1.0' };

// Each client: how it is loaded in each module system, then the first call (`base` is in scope).
const CLIENTS = {
  'node:http by hand': {
    esm: `import http from 'node:http';`,
    cjs: `const http = require('node:http');`,
    call: `await new Promise((resolve, reject) => http.get(base + ${JSON.stringify(PATH)}, { headers: ${JSON.stringify(HEADERS)} }, (res) => {
      const chunks = []; res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).data)); res.on('error', reject);
    }).on('error', reject))`,
  },
  'global fetch': {
    esm: '',
    cjs: '',
    call: `(await (await fetch(base + ${JSON.stringify(PATH)}, { headers: ${JSON.stringify(HEADERS)} })).json()).data`,
  },
  'raw undici request()': {
    package: 'undici',
    esm: `import { request } from 'undici';`,
    cjs: `const { request } = require('undici');`,
    call: `(await (await request(base + ${JSON.stringify(PATH)}, { headers: ${JSON.stringify(HEADERS)} })).body.json()).data`,
  },
  '@wallet/node': {
    esm: `import { Wallet } from '@wallet/node';`,
    cjs: `const { Wallet } = require('@wallet/node');`,
    call: `await new Wallet({ apiKey: ${JSON.stringify(KEY)}, baseUrl: base }).charges.verify('order_1042')`,
  },
  'stripe-node': {
    package: 'stripe',
    peer: true,
    esm: `import Stripe from 'stripe';`,
    cjs: `const Stripe = require('stripe');`,
    call: `(await new Stripe(${JSON.stringify(KEY)}, { host: new URL(base).hostname, port: Number(new URL(base).port),
      protocol: 'http', maxNetworkRetries: 0, telemetry: false }).rawRequest('GET', ${JSON.stringify(PATH)})).data`,
  },
};

const EMPTY = 'empty process';

/** The program of one sample: `client` by name (undefined: the empty process). */
export function program(name, format, base) {
  const client = CLIENTS[name];
  const report = `const ms = performance.now(); const { user, system } = process.cpuUsage();
    process.stdout.write(JSON.stringify({ ms, cpu: (user + system) / 1000, rss: process.memoryUsage().rss, ok }));
    process.exit(0);`;
  if (!client) return `const ok = true; ${report}`;
  const load = client[format];
  const body = `const base = ${JSON.stringify(base)}; const data = ${client.call};
    const ok = data?.reference === 'order_1042'; ${report}`;
  return format === 'esm' ? `${load}\n${body}` : `${load}\n(async () => { ${body} })();`;
}

function sample(code, format, cwd = root) {
  const args = format === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`cold start child exited ${run.status}: ${run.stderr}`);
  const out = JSON.parse(run.stdout);
  if (!out.ok) throw new Error(`cold start child did not get the transaction: ${run.stdout}`);
  return out;
}

const installed = (name, peer) => {
  if (peer) return peerDir(name) !== undefined;
  try {
    createRequire(`${root}/`).resolve(name);
    return true;
  } catch {
    return false;
  }
};

/**
 * `{ rows: { client: { esm: { ms, cpu, rss }, cjs: {…} } }, skipped: [lines], runs }`: wall ms, CPU
 * ms and RSS bytes over the empty process of the same module system, medians of `runs` interleaved
 * samples. Wall ms is what a request waits; CPU ms is the same work without the time other
 * processes held the CPU, so on a shared machine the targets are held on it.
 */
export function coldStart(base, runs, only) {
  const skipped = [];
  const names = Object.keys(CLIENTS).filter((name) => {
    if (only && !only.includes(name)) return false;
    const { package: pkg, peer } = CLIENTS[name];
    if (pkg && !installed(pkg, peer)) {
      const how = peer ? 'npm run bench:peers installs it' : `npm install ${pkg}`;
      skipped.push(`cold start of ${name}: skipped, '${pkg}' is not installed (${how})`);
      return false;
    }
    return true;
  });
  const samples = {};
  for (const format of ['esm', 'cjs']) {
    for (const name of [EMPTY, ...names]) samples[`${name} ${format}`] = { ms: [], cpu: [], rss: [] };
  }
  for (let i = 0; i < runs; i++) {
    for (const format of ['esm', 'cjs']) {
      for (const name of [EMPTY, ...names]) {
        const cwd = CLIENTS[name]?.peer ? peers : root;
        const { ms, cpu, rss } = sample(program(name, format, base), format, cwd);
        samples[`${name} ${format}`].ms.push(ms);
        samples[`${name} ${format}`].cpu.push(cpu);
        samples[`${name} ${format}`].rss.push(rss);
      }
    }
  }
  const rows = {};
  for (const name of names) {
    rows[name] = {};
    for (const format of ['esm', 'cjs']) {
      const empty = samples[`${EMPTY} ${format}`];
      const own = samples[`${name} ${format}`];
      rows[name][format] = {
        ms: median(own.ms) - median(empty.ms),
        cpu: median(own.cpu) - median(empty.cpu),
        rss: median(own.rss) - median(empty.rss),
      };
    }
  }
  return { rows, skipped, runs };
}

// Run alone: one loopback server, the table printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = fork(fileURLToPath(new URL('./server.mjs', import.meta.url)));
  const { port } = await new Promise((resolve) => server.once('message', resolve));
  const result = coldStart(`http://127.0.0.1:${port}`, Number(process.argv[2] ?? 9));
  server.disconnect();
  console.log(`node ${process.version}${coldTable(result)}`);
}
