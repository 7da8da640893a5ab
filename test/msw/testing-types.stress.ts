/**
 * The long form of testing-types.test.ts: `tsc -p .` in the merchant's project without msw, every
 * library's declarations checked (`skipLibCheck: false`), exactly as the merchant's CI runs it.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

import { root } from '../helpers/loaded-modules.js';
import { projectWithoutMsw } from './consumer-project.js';

function tsc(cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const compiler = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const child = spawn(process.execPath, [compiler, '-p', '.', '--listFiles'], { cwd });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const project = projectWithoutMsw();
afterAll(() => rmSync(project, { recursive: true, force: true }));

it('tsc passes on a project without msw that uses @wallet/node/testing (ESM and CommonJS)', async () => {
  const { code, output } = await tsc(project);
  expect(output.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
  expect(code).toBe(0);
  expect(output).toContain('node_modules/@wallet/node/dist/testing.d.ts');
  expect(output).toContain('node_modules/@wallet/node/dist/testing.d.cts');
  expect(output).not.toMatch(/\/msw\//);
});
