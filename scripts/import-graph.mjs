// The import graph of src/ by module (a folder under src/, or a top-level file), checked against
// the layers of docs/design.md: every import between two modules must point to a lower layer.
// `node scripts/import-graph.mjs` prints the graph and exits 1 on an arrow back up. No dependencies.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

// Lowest first. A module may import only from modules on a lower line.
export const LAYERS = [
  ['internal'],
  ['types.ts', 'version.ts'],
  ['errors'],
  ['errors.ts'],
  ['schemas', 'platform'],
  ['core'],
  // The money helpers sit under the resources: reconcile checks fees with estimateFee.
  ['money.ts'],
  ['resources', 'webhooks'],
  ['client.ts', 'testing'],
  ['webhooks.ts', 'testing.ts', 'workspace.ts'],
  ['index.ts'],
];

const layerOf = new Map(LAYERS.flatMap((names, level) => names.map((name) => [name, level])));

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const moduleOf = (file) => relative(SRC, file).split(sep)[0];
// Static, type-only and dynamic imports, and re-exports, of relative paths.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm;

/** Every arrow between two modules: `{ from, to, file, target }`. */
export function arrows() {
  const out = [];
  for (const file of files(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1]).replace(/\.js$/, '.ts');
      const from = moduleOf(file);
      const to = moduleOf(target);
      if (from !== to) out.push({ from, to, file: relative(SRC, file), target: relative(SRC, target) });
    }
  }
  return out;
}

/** Arrows that do not point to a lower layer, or that touch a module no layer names. */
export function violations(list = arrows()) {
  return list.filter(({ from, to }) => {
    const a = layerOf.get(from);
    const b = layerOf.get(to);
    return a === undefined || b === undefined || b >= a;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const list = arrows();
  const counts = new Map();
  for (const { from, to } of list) counts.set(`${from} -> ${to}`, (counts.get(`${from} -> ${to}`) ?? 0) + 1);
  for (const [edge, n] of [...counts].sort()) console.log(`${edge.padEnd(34)} ${n}`);
  const bad = violations(list);
  for (const v of bad) console.log(`UP: ${v.file} imports ${v.target}`);
  console.log(bad.length === 0 ? 'no arrow back up' : `${bad.length} arrow(s) back up`);
  process.exitCode = bad.length === 0 ? 0 : 1;
}
