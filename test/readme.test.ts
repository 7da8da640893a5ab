import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '@wallet/node/testing';
import { requireBuild } from './helpers/loaded-modules.js';
import { startNode } from './sandbox/child.js';
import type { Child } from './sandbox/child.js';

/** A free loopback port for hook.mjs (the README's 3000 may be taken on a shared machine). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
// Inside the package, so `import '@wallet/node'` resolves to the build through the exports map,
// as it does in a merchant's project.
const jsScratch = new URL('./readme-quickstart.tmp.mjs', import.meta.url);
const hookScratch = new URL('./readme-hook.tmp.mjs', import.meta.url);
const tsScratch = new URL('./readme-quickstart.tmp.ts', import.meta.url);

const guide = readFileSync(new URL('../docs/getting-started.md', import.meta.url), 'utf8');

/** The first `lang` block after `heading` in `markdown`, unindented. */
function codeAfter(markdown: string, heading: string, lang: 'js' | 'ts' | 'sh'): string {
  const section = markdown.slice(markdown.indexOf(heading));
  const match = new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\``, 'm').exec(section);
  if (!match?.[2]) throw new Error(`no ${lang} block after ${heading}`);
  return match[2].replace(new RegExp(`^${match[1]}`, 'gm'), '');
}

const quickStart = (lang: 'js' | 'ts'): string => codeAfter(readme, '## Quick start', lang);
const APPROVE = /^Approve as Ada: curl -X POST (http:\/\/\S+\/_sandbox\/charges\/(order_\d+)\/authorize)$/;

/** Runs plain JavaScript with node against `baseUrl` to its end, as `WALLET_…=… node pay.mjs` does. */
async function runJs(code: string, baseUrl: string): Promise<string> {
  writeFileSync(jsScratch, code);
  const { stdout } = await promisify(execFile)(process.execPath, [jsScratch.pathname], {
    env: { ...process.env, WALLET_SECRET_KEY: 'sk_test_demo', WALLET_BASE_URL: baseUrl },
    timeout: 15_000,
  });
  return stdout;
}

/** Starts plain JavaScript with node, read line by line. */
function startJs(file: URL, code: string, env: NodeJS.ProcessEnv): Child {
  writeFileSync(file, code);
  return startNode(file.pathname, [], env);
}

/** Runs the quick start's pay.mjs, plays Ada with the curl line it prints, and returns its output. */
async function payAndApprove(baseUrl: string): Promise<{ reference: string; stdout: string }> {
  const child = startJs(jsScratch, quickStart('js'), {
    WALLET_SECRET_KEY: 'sk_test_demo',
    WALLET_BASE_URL: baseUrl,
  });
  try {
    const [, approveUrl, reference] = await child.waitForLine(APPROVE, 15_000);
    expect(child.stdout()).toContain("status: 'PENDING_AUTHORIZATION'");
    expect(child.stdout()).not.toContain("status: 'SUCCESS'");
    expect((await fetch(approveUrl!, { method: 'POST' })).status).toBe(200);
    expect((await child.exited).code).toBe(0);
    return { reference: reference!, stdout: child.stdout() };
  } finally {
    child.kill();
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  for (const file of [jsScratch, hookScratch, tsScratch]) rmSync(file, { force: true });
});

describe('the README quick start', () => {
  it('starts the sandbox with the bin on the port the code and the environment use', () => {
    expect(readme).toContain('npx wallet-sandbox --port 4010');
    expect(readme).toContain(
      'WALLET_SECRET_KEY=sk_test_demo WALLET_BASE_URL=http://127.0.0.1:4010 node pay.mjs',
    );
  });

  it('in plain JavaScript runs as written with node, twice: each run a new order, verified again once paid', async () => {
    requireBuild();
    const code = quickStart('js');
    expect(code).not.toMatch(/!\.|: string|as const|<\w+>/); // nothing only TypeScript accepts
    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    try {
      const first = await payAndApprove(url);
      const second = await payAndApprove(url);
      expect(second.reference).not.toBe(first.reference);
      for (const run of [first, second]) {
        const after = run.stdout.slice(run.stdout.indexOf('Approve as Ada'));
        expect(after).toContain(`reference: '${run.reference}'`);
        expect(after).toContain("status: 'SUCCESS'");
        expect(after).toMatch(/fee: 10000,[\s\S]*netAmount: 490000/);
      }
    } finally {
      await close();
    }
    expect(sandbox.charges.map((c) => c.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(sandbox.debits).toHaveLength(2);
  });

  it('delivers webhooks to hook.mjs once the running sandbox is pointed at it, keeping what it holds', async () => {
    requireBuild();
    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    const port = await freePort();
    const hook = startJs(
      hookScratch,
      codeAfter(readme, 'save this as `hook.mjs`', 'js').replace('3000', String(port)),
      {
        WALLET_WEBHOOK_SECRET: 'whsec_demo',
      },
    );
    try {
      const earlier = await payAndApprove(url);
      const curl =
        /^curl -X POST http:\/\/127\.0\.0\.1:4010(\/_sandbox\/webhook) -H 'content-type: application\/json' -d '(.+)'$/m.exec(
          codeAfter(readme, 'save this as `hook.mjs`', 'sh'),
        );
      expect(curl, 'the curl line that points the sandbox at hook.mjs').not.toBeNull();
      const target = JSON.parse(curl![2]!.replace('3000', String(port))) as unknown;
      const set = await fetch(`${url}${curl![1]}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(target),
      });
      expect(set.status).toBe(200);
      const { reference } = await payAndApprove(url);
      await hook.waitForLine(new RegExp(`^charge\\.success ${reference}$`));
      expect(sandbox.charge(earlier.reference)?.status).toBe('SUCCESS');
    } finally {
      hook.kill();
      await close();
    }
  });

  it('in TypeScript is the same code with the non-null assertion, and runs as written', async () => {
    const code = quickStart('ts');
    expect(code.replace('linkedBanks[0]!.bankId', 'linkedBanks[0].bankId')).toBe(quickStart('js'));
    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    vi.stubEnv('WALLET_SECRET_KEY', 'sk_test_demo');
    vi.stubEnv('WALLET_BASE_URL', url);
    const lines: unknown[] = [];
    vi.spyOn(console, 'log').mockImplementation((value: unknown) => void lines.push(value));
    try {
      writeFileSync(tsScratch, code);
      const ran = import(/* @vite-ignore */ `${tsScratch.href}?t=${Date.now()}`);
      await vi.waitFor(
        () => expect(lines.some((line) => typeof line === 'string' && APPROVE.test(line))).toBe(true),
        {
          timeout: 15_000,
        },
      );
      const approve = APPROVE.exec(
        lines.find((line) => typeof line === 'string' && APPROVE.test(line)) as string,
      );
      await fetch(approve![1]!, { method: 'POST' });
      await ran;
    } finally {
      await close();
    }
    expect(lines[0]).toMatchObject({ amount: 500_000, status: 'PENDING_AUTHORIZATION' });
    expect(lines[2]).toMatchObject({ amount: 500_000, status: 'SUCCESS', fee: 10_000 });
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
  it('has plain JavaScript that runs as written with node against the sandbox, twice: a new order each run', async () => {
    requireBuild();
    const sandbox = createSandbox();
    const { url, close } = await sandbox.listen();
    const references: string[] = [];
    try {
      for (let run = 0; run < 2; run++) {
        const stdout = await runJs(codeAfter(guide, '## 4. Charge a customer', 'js'), url);
        expect(stdout).toContain('Ada Lovelace');
        expect(stdout).toContain('PENDING_AUTHORIZATION');
        // The approve line it prints is the guide's curl, for this run's order.
        const [, approveUrl, reference] = APPROVE.exec(stdout.trim().split('\n').at(-1)!) ?? [];
        expect(approveUrl).toBe(`${url}/_sandbox/charges/${reference}/authorize`);
        references.push(reference!);
      }
    } finally {
      await close();
    }
    expect(references[1]).not.toBe(references[0]);
    for (const reference of references) {
      expect(sandbox.charge(reference)).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
    }
  });

  it('says what each runtime needs, and a missing base URL fails at the first call, not at construction', () => {
    expect(guide).toContain('deno run --allow-env --allow-net');
    expect(guide).toContain('its first call fails with a `ValidationError`');
    expect(guide).not.toContain('fails at construction');
    expect(guide).not.toContain("'order_1042'; //");
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
