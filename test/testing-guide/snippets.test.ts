/**
 * docs/testing.md shows only code that runs: each fenced block is marked with the test file and
 * region it is copied from (`<!-- snippet: test/msw/x.test.ts#name -->`), and must equal that
 * region, which the file's own tests run or type-check. A block marked `msw3` is the region as
 * the msw 3 run runs it (test/msw/msw3.ts), the one line msw 3 spells differently.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

import { root } from '../helpers/loaded-modules.js';
import { asMsw3 } from '../msw/msw3.js';

const GUIDE = 'docs/testing.md';
const read = (path: string): string => readFileSync(`${root}/${path}`, 'utf8');

interface Block {
  marker: string | undefined;
  msw3: boolean;
  code: string;
  line: number;
}

function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  const fence = /^```[a-z]*\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    const before = markdown.slice(0, match.index).trimEnd();
    const [, marker, msw3] = /<!-- snippet: (\S+)( msw3)? -->$/.exec(before) ?? [];
    found.push({ marker, msw3: msw3 !== undefined, code: match[1]!, line: before.split('\n').length + 1 });
  }
  return found;
}

function region(marker: string): string {
  const [file, name] = marker.split('#') as [string, string];
  const lines = read(file).split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const end = lines.findIndex((l) => l.trim() === `// #endregion ${name}`);
  if (start < 0 || end < start) throw new Error(`${marker}: no region "${name}" in ${file}`);
  // A region nested inside (a line shown again on its own) leaves only its code.
  const code = lines.slice(start + 1, end).filter((l) => !/^\s*\/\/ #(end)?region /.test(l));
  return code.join('\n') + '\n';
}

it('every code block in docs/testing.md is a region of a test file, word for word', () => {
  const found = blocks(read(GUIDE));
  expect(found.length).toBeGreaterThanOrEqual(6);
  for (const block of found) {
    expect(block.marker, `${GUIDE}:${block.line} has no <!-- snippet: file#region --> marker`).toBeDefined();
    const code = region(block.marker!);
    if (block.msw3) expect(asMsw3(code), `${block.marker} reads the same under msw 3`).not.toBe(code);
    expect(block.code, `${GUIDE}:${block.line} differs from ${block.marker}`).toBe(
      block.msw3 ? asMsw3(code) : code,
    );
  }
});

it('leads with the choice of the three ways and links the development-server guide', () => {
  const guide = read(GUIDE);
  const choice = guide.indexOf('## Choose');
  expect(choice).toBeGreaterThan(0);
  expect(guide.slice(0, choice)).not.toContain('```');
  for (const way of ['sandbox.dispatcher', 'WALLET_TRANSPORT=fetch', 'sandbox.listen()', 'wallet-sandbox']) {
    expect(guide.slice(choice, guide.indexOf('\n## ', choice + 1))).toContain(way);
  }
  expect(guide).toContain('(sandbox.md)');
});
