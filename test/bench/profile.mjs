// Where one client's CPU goes: runs it against the bench's loopback server under --cpu-prof and
// prints the heaviest files and functions by self time (the .cpuprofile stays for a viewer).
// Usage: npm run build && node test/bench/profile.mjs ['sdk charges.verify'] [calls] [outDir]
import { fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [variant = 'sdk charges.verify', calls = '20000', dir = tmpdir()] = process.argv.slice(2);
const here = (file) => new URL(file, import.meta.url).pathname;
const name = `${variant.replace(/\W+/g, '-')}.cpuprofile`;

const server = fork(here('server.mjs'));
const { port } = await new Promise((resolve) => server.once('message', resolve));
const code = `import { CLIENTS } from ${JSON.stringify(here('clients.mjs'))};
  const client = await CLIENTS[${JSON.stringify(variant)}]('http://127.0.0.1:${port}');
  let left = ${Number(calls)};
  await Promise.all(Array.from({ length: 32 }, async () => { while (left-- > 0) await client.call(); }));
  await client.close();`;
const run = spawnSync(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`, '--input-type=module', '-e', code],
  { cwd: here('../..'), encoding: 'utf8' },
);
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
    frame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/') || `(${frame.functionName})`;
  byFile.set(file, (byFile.get(file) ?? 0) + us);
  const fn = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
});
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `${((100 * us) / busy).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
console.log(`${variant}: ${calls} calls, ${(busy / 1000).toFixed(0)} ms busy; profile ${join(dir, name)}`);
console.log(`\nby file (self time, share of busy time)\n${top(byFile, 20)}`);
console.log(`\nby function\n${top(byFunction, 40)}`);
