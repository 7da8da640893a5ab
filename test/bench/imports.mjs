// Import cost of each entry in fresh processes, over an empty module imported the same way in the
// same run (by package name, through an exports map: fixtures/empty-package imports itself as the
// package imports itself), so Node's start-up, the ESM loader's first use and the resolution of a
// package name cancel out. Runs are interleaved.
// The figure is the CPU time the import takes (process.cpuUsage): on an idle machine it equals the
// wall time, and on a busy one it is not inflated by the time other processes hold the CPU.
// Also the first call's extra cost: undici loads lazily on the first request (and zod, only to word a refusal).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const emptyPackage = fileURLToPath(new URL('./fixtures/empty-package', import.meta.url));
// Entry → [specifier, the directory it is imported from].
const ENTRIES = {
  'empty module': ['bench-empty', emptyPackage],
  '@wallet/node': ['@wallet/node', root],
  '@wallet/node/webhooks': ['@wallet/node/webhooks', root],
};

function node(code, cwd = root) {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`child exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** CPU and wall milliseconds to import each entry, a fresh process per sample: { entry: { cpu, wall } }. */
export function importTimes(runs) {
  const samples = Object.fromEntries(Object.keys(ENTRIES).map((name) => [name, { cpu: [], wall: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const [name, [spec, cwd]] of Object.entries(ENTRIES)) {
      const code = `const c = process.cpuUsage(); const t = performance.now();
        await import(${JSON.stringify(spec)});
        const wall = performance.now() - t; const { user, system } = process.cpuUsage(c);
        process.stdout.write(JSON.stringify({ cpu: (user + system) / 1000, wall }));`;
      const { cpu, wall } = node(code, cwd);
      samples[name].cpu.push(cpu);
      samples[name].wall.push(wall);
    }
  }
  return samples;
}

/**
 * In fresh processes: the first verify after import, which loads undici, and the
 * first verify of a second client in the same process, which opens its own connection too but finds
 * the modules loaded. Their difference is what the lazy load costs: { lazy: [ms…], warm: [ms…] }.
 */
export function firstCall(base, runs) {
  const code = `const { Wallet } = await import('@wallet/node');
    const first = async () => {
      const wallet = new Wallet({ apiKey: 'sk_test_bench_0123456789abcdef', baseUrl: ${JSON.stringify(base)} });
      const t = performance.now();
      await wallet.charges.verify('order_1042');
      const ms = performance.now() - t;
      await wallet.close();
      return ms;
    };
    const lazy = await first();
    const warm = await first();
    process.stdout.write(JSON.stringify({ lazy, warm }));`;
  const out = { lazy: [], warm: [] };
  for (let i = 0; i < runs; i++) {
    const { lazy, warm } = node(code);
    out.lazy.push(lazy);
    out.warm.push(warm);
  }
  return out;
}
