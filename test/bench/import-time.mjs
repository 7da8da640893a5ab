// Import cost of each entry against its heavy dependencies, measured in one run so that the
// ratios hold on a noisy machine. Each variant runs in a fresh process; runs are interleaved.
// Usage: npm run build && node test/bench/import-time.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.argv[2] ?? 25);
const variants = {
  'node (empty)': '',
  '@wallet/node (ESM)': "await import('@wallet/node')",
  '@wallet/node (CJS)': "require('@wallet/node')",
  '@wallet/node/webhooks (ESM)': "await import('@wallet/node/webhooks')",
  undici: "await import('undici')",
  zod: "await import('zod')",
  'undici + zod (an eager SDK)': "await import('undici'); await import('zod')",
};

const timing = (code) => {
  const cjs = code.startsWith('require');
  const body = `const t = performance.now(); ${code}; process.stdout.write(String(performance.now() - t));`;
  const args = cjs ? ['-e', body] : ['--input-type=module', '-e', body];
  const wall = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return { importMs: Number(run.stdout), processMs: performance.now() - wall };
};

const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let i = 0; i < runs; i++)
  for (const [name, code] of Object.entries(variants)) samples[name].push(timing(code));
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const baseline = median(samples['@wallet/node (ESM)'].map((s) => s.importMs));
console.log(`median of ${runs} runs, node ${process.version}`);
console.log(
  'variant'.padEnd(32),
  'import ms'.padStart(10),
  'process ms'.padStart(11),
  'vs @wallet/node'.padStart(16),
);
for (const [name, xs] of Object.entries(samples)) {
  const imp = median(xs.map((s) => s.importMs));
  const proc = median(xs.map((s) => s.processMs));
  console.log(
    name.padEnd(32),
    imp.toFixed(1).padStart(10),
    proc.toFixed(1).padStart(11),
    `${(imp / baseline).toFixed(2)}x`.padStart(16),
  );
}
