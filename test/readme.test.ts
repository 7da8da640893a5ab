import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '@wallet/node/testing';
import { requireBuild } from './helpers/loaded-modules.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
// Inside the package, so `import '@wallet/node'` resolves to the build through the exports map,
// as it does in a merchant's project.
const jsScratch = new URL('./readme-quickstart.tmp.mjs', import.meta.url);
const tsScratch = new URL('./readme-quickstart.tmp.ts', import.meta.url);

const guide = readFileSync(new URL('../docs/getting-started.md', import.meta.url), 'utf8');

/** The first `lang` block after `heading` in `markdown`, unindented. */
function codeAfter(markdown: string, heading: string, lang: 'js' | 'ts'): string {
  const section = markdown.slice(markdown.indexOf(heading));
  const match = new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\``, 'm').exec(section);
  if (!match?.[2]) throw new Error(`no ${lang} block after ${heading}`);
  return match[2].replace(new RegExp(`^${match[1]}`, 'gm'), '');
}

const quickStart = (lang: 'js' | 'ts'): string => codeAfter(readme, '## Quick start', lang);

/** Runs plain JavaScript with node against `baseUrl`, as `WALLET_…=… node pay.mjs` does. */
async function runJs(code: string, baseUrl: string): Promise<string> {
  writeFileSync(jsScratch, code);
  const { stdout } = await promisify(execFile)(process.execPath, [jsScratch.pathname], {
    env: { ...process.env, WALLET_SECRET_KEY: 'sk_test_demo', WALLET_BASE_URL: baseUrl },
    timeout: 15_000,
  });
  return stdout;
}

/** The quick start's step 3, as `curl` sends it. */
async function approveAsTheCustomer(baseUrl: string): Promise<void> {
  const command = /curl -X POST http:\/\/127\.0\.0\.1:4010(\/_sandbox\/charges\/order_1042\/authorize)/.exec(
    readme,
  );
  expect(command, 'step 3 of the quick start').not.toBeNull();
  const response = await fetch(`${baseUrl}${command![1]}`, { method: 'POST' });
  expect(response.status).toBe(200);
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(jsScratch, { force: true });
  rmSync(tsScratch, { force: true });
});

describe('the README quick start', () => {
  it('starts the sandbox with the bin on the port the code and the environment use', () => {
    expect(readme).toContain('npx wallet-sandbox --port 4010');
    expect(readme).toContain(
      'WALLET_SECRET_KEY=sk_test_demo WALLET_BASE_URL=http://127.0.0.1:4010 node pay.mjs',
    );
  });

  it('in plain JavaScript runs as written with node, then the customer approves and the charge is paid', async () => {
    requireBuild();
    const code = quickStart('js');
    expect(code).not.toMatch(/!\.|: string|as const|<\w+>/); // nothing only TypeScript accepts
    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    try {
      const stdout = await runJs(code, url);
      expect(stdout).toContain("reference: 'order_1042'");
      expect(stdout).toContain("status: 'PENDING_AUTHORIZATION'");
      await approveAsTheCustomer(url);
    } finally {
      await close();
    }
    expect(sandbox.charge('order_1042')).toMatchObject({
      status: 'SUCCESS',
      fee: 10_000,
      netAmount: 490_000,
    });
    expect(sandbox.debits).toHaveLength(1);
  });

  it('in TypeScript is the same code with the non-null assertion, and runs as written', async () => {
    const code = quickStart('ts');
    expect(code.replace('linkedBanks[0]!.bankId', 'linkedBanks[0].bankId')).toBe(quickStart('js'));
    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_test_demo');
    vi.stubEnv('WALLET_BASE_URL', url);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      writeFileSync(tsScratch, code);
      await import(/* @vite-ignore */ `${tsScratch.href}?t=${Date.now()}`);
      await approveAsTheCustomer(url);
    } finally {
      await close();
    }
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({ reference: 'order_1042', amount: 500_000, status: 'PENDING_AUTHORIZATION' }),
    );
    expect(sandbox.charge('order_1042')).toMatchObject({ status: 'SUCCESS' });
  });

  // What a merchant pastes must need nothing else: the SDK is its only import, and the key comes
  // from the environment the command line sets, never from the code (a key pasted there leaks).
  it('needs nothing but the SDK and the environment: one import, no key in the code', () => {
    for (const lang of ['js', 'ts'] as const) {
      const code = quickStart(lang);
      expect([...code.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1])).toEqual(['@wallet/node']);
      expect(code).not.toMatch(/sk_(test|live)_/);
      expect(code).toMatch(/new Wallet\(\)/);
    }
  });
});

describe('the getting started guide', () => {
  it('has plain JavaScript that runs as written with node against the sandbox', async () => {
    requireBuild();
    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    try {
      const stdout = await runJs(codeAfter(guide, '## 4. Charge a customer', 'js'), url);
      expect(stdout).toContain('Ada Lovelace');
      expect(stdout).toContain('PENDING_AUTHORIZATION');
    } finally {
      await close();
    }
    expect(sandbox.charge('order_1042')).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
  });
});

describe('the README for contributors', () => {
  it('gives the two set-up commands, after the merchant material', () => {
    const contributing = readme.indexOf('npm install && npm run demo');
    expect(contributing).toBeGreaterThan(readme.indexOf('## Quick start'));
    expect(readme.indexOf('npm test', contributing)).toBeGreaterThan(contributing);
    expect(readme).toContain('docs/design.md');
  });
});
