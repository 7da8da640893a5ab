/**
 * The guide's word on the one line msw 3 spells differently: vitest runs the wrong name without a
 * word, but TypeScript refuses it, under each major. Checked in process against the msw 2 and
 * msw 3 this repository installs (`msw`, and its `msw3` alias).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';

import { root } from '../helpers/loaded-modules.js';

// Inside node_modules, so that `msw` and `msw3` resolve as in a project that installed them.
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'wallet-msw-listen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Both spellings against each major, in one program; "file:line" says which ones TypeScript refused.
function refused(): string[] {
  const files = ['msw', 'msw3'].map((name) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(
      file,
      `import { setupServer } from '${name}/node';
const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });
server.listen({ onUnhandledFrame: 'error' });
`,
    );
    return file;
  });
  const program = ts.createProgram({
    rootNames: files,
    options: {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    },
  });
  return files.flatMap((file) =>
    program
      .getSemanticDiagnostics(program.getSourceFile(file))
      .map(
        (d) => `${file.slice(dir.length + 1)}:${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}`,
      ),
  );
}

it("TypeScript refuses msw 3's onUnhandledFrame under msw 2, and msw 2's onUnhandledRequest under msw 3", () => {
  expect(refused()).toEqual(['msw.ts:4', 'msw3.ts:3']);
});
