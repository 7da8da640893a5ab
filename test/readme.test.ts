import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '@wallet/node/testing';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const scratch = new URL('./readme-quickstart.tmp.ts', import.meta.url);

function codeAfter(heading: string): string {
  const section = readme.slice(readme.indexOf(heading));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error(`no ts block after ${heading}`);
  return match[1];
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(scratch, { force: true });
});

describe('README', () => {
  it('has a quick start of an import and five lines of code that runs as written against the sandbox', async () => {
    const code = codeAfter('## Quick start');
    expect(
      code
        .trim()
        .split('\n')
        .filter((line) => line.trim() !== ''),
    ).toHaveLength(6);

    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_test_readme');
    vi.stubEnv('WALLET_BASE_URL', url);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      writeFileSync(scratch, code);
      await import(/* @vite-ignore */ `${scratch.href}?t=${Date.now()}`);
    } finally {
      await close();
    }
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ reference: 'order_1042', amount: 500_000 }));
    expect(sandbox.charges.map((c) => [c.reference, c.status])).toEqual([
      ['order_1042', 'PENDING_AUTHORIZATION'],
    ]);
  });

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm test');
  });
});
