// The parts of a cold start that come before the SDK's own work, per module system: what loading
// an empty file, an empty package (by name, through an exports map), the root entry and then the
// Agent bundle cost, as CPU over an empty process of the same module system, median of interleaved
// fresh processes. Global fetch pays none of these (its modules are Node's own, from the code cache
// inside the binary), so they are the floor of the ratio to fetch (docs/performance.md, Cold start).
// Usage: npm run build && node test/bench/cold-parts.mjs [runs=41]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './report.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const esmPackage = fileURLToPath(new URL('./fixtures/empty-package', import.meta.url));
const cjsPackage = fileURLToPath(new URL('./fixtures/empty-package-cjs', import.meta.url));
const runs = Number(process.argv[2] ?? 41);

// Row → { esm: [code, cwd], cjs: [code, cwd] }; the empty process is the first.
const ROWS = {
  'empty process': { esm: ['', root], cjs: ['', root] },
  'an empty file, by path': {
    esm: [`import ${JSON.stringify(`${esmPackage}/index.js`)};`, root],
    cjs: [`require(${JSON.stringify(`${cjsPackage}/index.js`)});`, root],
  },
  'an empty package, by name': {
    esm: [`import 'bench-empty';`, esmPackage],
    cjs: [`require('bench-empty-cjs');`, cjsPackage],
  },
  'the root entry': { esm: [`import '@wallet/node';`, root], cjs: [`require('@wallet/node');`, root] },
  'the root entry, then the Agent': {
    esm: [`import '@wallet/node'; await import(${JSON.stringify(`${root}dist/undici-agent.js`)});`, root],
    cjs: [`require('@wallet/node'); require(${JSON.stringify(`${root}dist/undici-agent.cjs`)});`, root],
  },
};

const report = `const { user, system } = process.cpuUsage(); process.stdout.write(String((user + system) / 1000)); process.exit(0);`;
const cpu = {};
for (let i = 0; i < runs; i++) {
  for (const [row, forms] of Object.entries(ROWS)) {
    for (const [format, [code, cwd]] of Object.entries(forms)) {
      const args = format === 'esm' ? ['--input-type=module', '-e', code + report] : ['-e', code + report];
      const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`${row} (${format}) exited ${run.status}: ${run.stderr}`);
      (cpu[`${row} ${format}`] ??= []).push(Number(run.stdout));
    }
  }
}
const over = (row, format) => median(cpu[`${row} ${format}`]) - median(cpu[`empty process ${format}`]);
console.log(`node ${process.version}; CPU ms over an empty process, median of ${runs}`);
console.log(`${'loaded'.padEnd(32)}      ESM  CommonJS`);
for (const row of Object.keys(ROWS).slice(1)) {
  console.log(
    `${row.padEnd(32)} ${over(row, 'esm').toFixed(1).padStart(8)} ${over(row, 'cjs').toFixed(1).padStart(9)}`,
  );
}
