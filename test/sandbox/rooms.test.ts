/**
 * The sandbox's rooms keep their order: every import under src/testing/ goes to the same room or one
 * below it, and no two files import each other, even through others. Breaking the order (a state
 * file that imports an endpoint, say) turns this red with the offending arrow named.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../src/testing');

// Bottom first. Files directly in src/testing/ (api, options, sandbox) are the "sandbox" room.
const ROOMS = ['state', 'page', 'webhooks', 'endpoints', 'transports', 'sandbox', 'cli'] as const;
const RANK: Record<string, number> = {
  state: 0,
  page: 1,
  webhooks: 1,
  endpoints: 2,
  transports: 3,
  sandbox: 4,
  cli: 5,
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

function room(file: string): string {
  const first = relative(ROOT, file).split('/');
  return first.length === 1 ? 'sandbox' : (first[0] ?? '');
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
    resolve(dirname(file), `${m[1]}.ts`),
  );
  return found.filter((target) => target.startsWith(`${ROOT}/`));
}

const all = files(ROOT);
const graph = new Map(all.map((file) => [file, imports(file)]));

describe('src/testing/ rooms', () => {
  it('has only the known rooms', () => {
    expect(new Set(all.map(room))).toEqual(new Set(ROOMS));
  });

  it('imports only downward: the same room or one below', () => {
    const up = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => (RANK[room(target)] ?? 99) > (RANK[room(file)] ?? -1))
        .map((target) => `${relative(ROOT, file)} -> ${relative(ROOT, target)}`),
    );
    expect(up).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(ROOT, f)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of all) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('keeps every file under 300 lines', () => {
    const long = all.filter((file) => readFileSync(file, 'utf8').split('\n').length > 300);
    expect(long.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
