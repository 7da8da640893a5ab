// Where a cold start goes: one fresh process per module system makes the first verify under
// --cpu-prof, and this prints the self time by package or dist file and the heaviest functions.
// Usage: npm run build && node test/bench/cold-profile.mjs ['@wallet/node'] [esm|cjs] [outDir]
import { fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { program } from './cold-start.mjs';

const [client = '@wallet/node', format = 'esm', dir = tmpdir()] = process.argv.slice(2);
const here = (file) => new URL(file, import.meta.url).pathname;
const name = `cold-${client.replace(/\W+/g, '-')}-${format}.cpuprofile`;

const server = fork(here('server.mjs'));
const { port } = await new Promise((resolve) => server.once('message', resolve));
const code = program(client, format, `http://127.0.0.1:${port}`);
const flags = ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`, '--cpu-prof-interval=100'];
const args = format === 'esm' ? [...flags, '--input-type=module', '-e', code] : [...flags, '-e', code];
const run = spawnSync(process.execPath, args, { cwd: here('../..'), encoding: 'utf8' });
server.disconnect();
if (run.status !== 0) throw new Error(run.stderr);

const profile = JSON.parse(readFileSync(join(dir, name), 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
const byFile = new Map();
const byFunction = new Map();
let busy = 0;
profile.samples.forEach((id, i) => {
  const frame = nodes.get(id);
  const us = profile.timeDeltas[i] ?? 0;
  if (frame.functionName === '(idle)') return;
  busy += us;
  const file =
    frame.url
      .replace(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*/, '$1')
      .replace(/.*\/dist\//, 'dist/')
      .replace(/^node:internal\/.*/, 'node internals') || `(${frame.functionName})`;
  byFile.set(file, (byFile.get(file) ?? 0) + us);
  const fn = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*node_modules\//, '')}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
});
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `${(us / 1000).toFixed(1).padStart(6)} ms  ${key}`)
    .join('\n');
console.log(
  `${client} (${format}): ${(busy / 1000).toFixed(1)} ms busy to the first result; ${join(dir, name)}`,
);
console.log(`\nby package or file (self time)\n${top(byFile, 15)}`);
console.log(`\nby function\n${top(byFunction, 25)}`);
