// What `npm install` puts on a merchant's disk: the package's published files plus every runtime
// dependency, transitively, found the way Node resolves them. Apparent file sizes, in bytes.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { peerDir, peerInstalled } from '../proofs/peers/load.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

// A package's own files; its nested node_modules are counted as dependencies instead.
function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? sizeOf(path) : entry.isFile() ? statSync(path).size : 0;
  }
  return total;
}

// Node's lookup: the nearest node_modules above the requiring package that holds the name.
function resolvePackage(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`cannot find ${name} from ${fromDir}`);
  }
}

/** A dependency tree's packages (deduplicated by directory) and their sizes: { name: bytes }. */
function dependencySizes(manifest, fromDir, seen = new Map()) {
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const dir = resolvePackage(name, fromDir);
    if (seen.has(dir)) continue;
    seen.set(dir, { name, bytes: sizeOf(dir) });
    dependencySizes(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')), dir, seen);
  }
  return seen;
}

function summary(ownBytes, manifest, fromDir) {
  const deps = [...dependencySizes(manifest, fromDir).values()];
  return { own: ownBytes, deps, total: ownBytes + deps.reduce((sum, d) => sum + d.bytes, 0) };
}

/** Installed size of this package and of the peers merchants compare it with. */
export function footprint() {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const result = { '@wallet/node': summary(packed[0].unpackedSize, manifest, root) };
  for (const peer of ['stripe', 'openai'].filter((name) => peerInstalled(name, `${name}'s footprint`))) {
    const dir = peerDir(peer);
    result[peer] = summary(sizeOf(dir), JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')), dir);
  }
  return result;
}
