// The one way the bench profiles: a child Node process under --cpu-prof against the bench's
// loopback server, its samples summed by file and by function (self time). profile.mjs (one
// client's calls) and cold-profile.mjs (fresh processes to the first result) both use it.
import { fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const here = (file) => new URL(file, import.meta.url).pathname;

/** The bench's loopback server, for as long as `use(base)` runs. */
export async function withServer(use) {
  const server = fork(here('server.mjs'));
  try {
    const { port } = await new Promise((resolve) => server.once('message', resolve));
    return await use(`http://127.0.0.1:${port}`);
  } finally {
    server.disconnect();
  }
}

/**
 * Runs `node [flags] ...args` under --cpu-prof (sampling every `intervalUs`, Node's default when
 * unset) from the repository's root and returns the profile's path.
 */
export function profileChild(args, { dir, name, intervalUs }) {
  const flags = ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`];
  if (intervalUs) flags.push(`--cpu-prof-interval=${intervalUs}`);
  const run = spawnSync(process.execPath, [...flags, ...args], { cwd: here('../..'), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return join(dir, name);
}

// A file as the tables name it: the SDK's files as dist/…; with `packages`, a package's files
// together under its name and Node's internals together.
function fileOf(url, functionName, packages) {
  if (!url) return `(${functionName})`;
  if (packages && url.startsWith('node:internal/')) return 'node internals';
  const file = packages ? url.replace(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*/, '$1') : url;
  return file.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
}

/**
 * Self time of every sample in `paths` (profiles of the same program, summed), by file (by package
 * with `packages`) and by function, in µs; idle time left out.
 */
export function selfTimes(paths, { packages = false } = {}) {
  const byFile = new Map();
  const byFunction = new Map();
  let busy = 0;
  for (const path of paths) {
    const profile = JSON.parse(readFileSync(path, 'utf8'));
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    profile.samples.forEach((id, i) => {
      const frame = frames.get(id);
      const us = profile.timeDeltas[i] ?? 0;
      if (frame.functionName === '(idle)') return;
      busy += us;
      const file = fileOf(frame.url, frame.functionName, packages);
      byFile.set(file, (byFile.get(file) ?? 0) + us);
      const where = frame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
      const fn = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    });
  }
  return { busy, byFile, byFunction };
}

/** The `n` largest entries of `map`, one a line, each worded by `label(us)`. */
export function top(map, n, label) {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `${label(us)}  ${key}`)
    .join('\n');
}
