/**
 * The tree's dependencies run one way, down (docs/design.md): scripts/import-graph.mjs lists every
 * import between modules of src/ (and between the toolkit's rooms) and fails on one that points to
 * the same or a higher layer, or on files that import one another in a circle.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../scripts/import-graph.mjs', import.meta.url));

describe('the import graph of src/', () => {
  it('has no arrow back up: core/ imports no public module, internal/ imports nothing above it', () => {
    const out = execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(out).toContain('no arrow back up');
    expect(out).not.toMatch(/^core -> (money|resources|client|index)/m);
    expect(out).not.toMatch(/^internal -> /m);
  });

  it('has no circle of files importing one another, type imports included (src/ and both packages)', () => {
    const out = execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(out).toContain('no circle of files');
  });

  it("keeps @wallet/agent-toolkit's rooms in order: answers, spending, tools, hosts", () => {
    const out = execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(out).toMatch(/^agent-toolkit: tools -> spending /m);
    expect(out).not.toMatch(/^agent-toolkit: (answers|spending) -> (tools|hosts)/m);
  });
});

// The house rule beside the layers: small files of one concept, none over 300 lines (docs/design.md).
describe('the source files', () => {
  it('are 300 lines or fewer each, in src/ and in both packages', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const sources = ['src', 'packages/cli/src', 'packages/agent-toolkit/src'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => join(dir, file)),
    );
    const long = sources.filter(
      (file) => readFileSync(join(root, file), 'utf8').split('\n').length - 1 > 300,
    );
    expect(sources.length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });
});
