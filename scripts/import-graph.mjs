// The import graph of src/ by module (a folder under src/, or a top-level file), checked against
// the layers of docs/design.md: every import between two modules must point to a lower layer; the
// same for the rooms of packages/agent-toolkit/src/ (its lines start `agent-toolkit:`).
// `node scripts/import-graph.mjs` prints the graph and exits 1 on an arrow back up. No dependencies.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(REPO, 'src');

// Lowest first. A module may import only from modules on a lower line.
export const LAYERS = [
  ['internal'],
  ['types.ts'],
  ['errors'],
  ['schemas', 'platform'],
  ['core'],
  // The money helpers sit under the resources: reconcile checks fees with estimateFee.
  ['money.ts'],
  ['resources', 'webhooks'],
  ['client.ts', 'testing'],
  ['webhooks.ts', 'testing.ts', 'workspace.ts'],
  ['index.ts'],
];

// The toolkit's rooms, lowest first: what the tools say, what bounds spending, the tools, their hosts.
export const TOOLKIT_LAYERS = [['answers'], ['spending'], ['tools'], ['hosts'], ['index.ts']];

const TREES = [
  { name: '', root: SRC, layers: LAYERS },
  { name: 'agent-toolkit: ', root: join(REPO, 'packages', 'agent-toolkit', 'src'), layers: TOOLKIT_LAYERS },
];

const levels = (layers) => new Map(layers.flatMap((names, level) => names.map((name) => [name, level])));

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const moduleOf = (root, file) => relative(root, file).split(sep)[0];
// Static, type-only and dynamic imports, and re-exports, of relative paths.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm;

/** Every arrow between two modules of a tree (src/ by default): `{ from, to, file, target }`. */
export function arrows(root = SRC) {
  const out = [];
  for (const file of files(root)) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1]).replace(/\.js$/, '.ts');
      const from = moduleOf(root, file);
      const to = moduleOf(root, target);
      if (from !== to) out.push({ from, to, file: relative(root, file), target: relative(root, target) });
    }
  }
  return out;
}

/** Arrows that do not point to a lower layer, or that touch a module no layer names. */
export function violations(list = arrows(), layers = LAYERS) {
  const layerOf = levels(layers);
  return list.filter(({ from, to }) => {
    const a = layerOf.get(from);
    const b = layerOf.get(to);
    return a === undefined || b === undefined || b >= a;
  });
}

/** Groups of files that import one another, round in a circle (type imports count too). */
export function circles(root = SRC) {
  const edges = new Map(
    files(root).map((file) => [
      file,
      [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) =>
        resolve(dirname(file), m[1]).replace(/\.js$/, '.ts'),
      ),
    ]),
  );
  // Tarjan's strongly connected components: each group of two or more files is a circle.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  const visit = (file) => {
    index.set(file, index.size);
    low.set(file, index.get(file));
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file), low.get(next)));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1) found.push(group.map((f) => relative(root, f)).sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bad = [];
  for (const { name, root, layers } of TREES) {
    const list = arrows(root);
    const counts = new Map();
    for (const { from, to } of list) {
      const edge = `${name}${from} -> ${to}`;
      counts.set(edge, (counts.get(edge) ?? 0) + 1);
    }
    for (const [edge, n] of [...counts].sort()) console.log(`${edge.padEnd(34)} ${n}`);
    for (const v of violations(list, layers)) {
      console.log(`UP: ${name}${v.file} imports ${v.target}`);
      bad.push(v);
    }
  }
  console.log(bad.length === 0 ? 'no arrow back up' : `${bad.length} arrow(s) back up`);
  const round = [SRC, ...TREES.slice(1).map((t) => t.root), join(REPO, 'packages', 'cli', 'src')].flatMap(
    (root) => circles(root),
  );
  for (const group of round) console.log(`CIRCLE: ${group.join(' ')}`);
  console.log(round.length === 0 ? 'no circle of files' : `${round.length} circle(s) of files`);
  process.exitCode = bad.length === 0 && round.length === 0 ? 0 : 1;
}
