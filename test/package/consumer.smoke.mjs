// The packed tarball, as merchants install it: fresh projects outside this repository, installed
// from the npm cache only, used from CommonJS, ESM and TypeScript under every module resolution,
// and the wallet-sandbox bin. Runs with node's own test runner so it runs unchanged on Node 20, 22
// and 24 (`npm run test:package`; `.ci/run` runs it on each). Needs `npm run build` first.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { consumerFiles, TSCONFIGS, WRONG_CALL } from './consumer-sources.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const node = process.execPath;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The JavaScript file behind a dev dependency's command, run with this test's node. */
function binOf(pkg, name = pkg) {
  const manifest = JSON.parse(readFileSync(join(repo, 'node_modules', pkg, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  return join(repo, 'node_modules', pkg, bin);
}

let scratch;
let tarball;
let project;

before(async () => {
  assert.ok(existsSync(join(repo, 'dist/index.js')), 'dist/ is missing: run `npm run build` first');
  scratch = mkdtempSync(join(tmpdir(), 'wallet-consumer-'));
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', scratch], { cwd: repo });
  tarball = join(scratch, JSON.parse(stdout)[0].filename);
  project = join(scratch, 'app');
  // Offline: what the tarball installs comes from the npm cache that `npm ci` of this repository filled.
  const files = { 'package.json': JSON.stringify({ name: 'merchant-app', private: true }), ...consumerFiles };
  mkdirSync(project);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  await run(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// On the second and third Node versions CI proves only what depends on the runtime.
const runtimeOnly = process.env.WALLET_SMOKE === 'runtime';

describe('the packed package', { skip: runtimeOnly }, () => {
  it('installs with no dependency (the part of undici it uses and zod are bundled), and ships the guides', () => {
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules/@wallet/node/package.json'), 'utf8'),
    );
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
    for (const guide of ['getting-started.md', 'errors.md', 'webhooks.md', 'testing.md']) {
      assert.ok(existsSync(join(project, 'node_modules/@wallet/node/docs', guide)), `docs/${guide} shipped`);
    }
    assert.ok(!existsSync(join(project, 'node_modules/@wallet/node/src')), 'sources are not shipped');
    assert.ok(manifest.repository && manifest.homepage && manifest.bugs && manifest.keywords?.length);
  });

  it('passes publint', async () => {
    const { stdout } = await run(node, [binOf('publint'), 'run', '--strict', tarball], { cwd: repo });
    assert.match(stdout, /All good!/);
  });

  it('passes are-the-types-wrong for every entry under node10, node16 (CJS and ESM) and bundler', async () => {
    const cli = binOf('@arethetypeswrong/cli', 'attw');
    const { stdout } = await run(node, [cli, tarball, '--profile', 'strict', '--format', 'json'], {
      cwd: repo,
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = JSON.parse(stdout);
    assert.deepEqual(report.problems, {});
    assert.deepEqual(report.analysis.problems, []);
    const entries = Object.keys(report.analysis.entrypoints).sort();
    assert.deepEqual(entries, ['.', './package.json', './schemas', './testing', './webhooks', './workspace']);
  });
});

describe('a CommonJS app', () => {
  it('requires every entry and gets working classes, guards and helpers', async () => {
    const { stdout } = await run(node, ['cjs.cjs'], { cwd: project });
    assert.equal(stdout.trim(), 'cjs ok');
  });
});

describe('an ESM app', () => {
  it('imports every entry and takes a charge through the wallet-sandbox bin to SUCCESS', async () => {
    const sandbox = await startBin(['--port', '0']);
    try {
      const { stdout } = await run(node, ['esm.mjs'], {
        cwd: project,
        env: { ...process.env, SANDBOX_URL: sandbox.url },
      });
      assert.equal(stdout.trim(), 'esm ok: SUCCESS 10000');
    } finally {
      await sandbox.stop();
    }
  });
});

// Two compilers at a time: the machine has two cores, and each walks the whole of @types/node.
describe(
  'a TypeScript app (strict, skipLibCheck false, without msw installed)',
  { skip: runtimeOnly, concurrency: 2 },
  () => {
    for (const [name, config] of Object.entries(TSCONFIGS)) {
      it(`type-checks under moduleResolution ${name}`, async () => {
        writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(config(repo)));
        await tsc(`tsconfig.${name}.json`);
      });
    }

    it('refuses a wrong call: an unknown authChannel does not compile', async () => {
      writeFileSync(join(project, 'wrong.mts'), WRONG_CALL);
      const config = TSCONFIGS.nodenext(repo);
      writeFileSync(
        join(project, 'tsconfig.wrong.json'),
        JSON.stringify({ ...config, files: ['wrong.mts'] }),
      );
      await assert.rejects(tsc('tsconfig.wrong.json'), (error) => {
        assert.match(error.stdout, /wrong\.mts.*error TS2322.*"wallet_sms"/s);
        return true;
      });
    });
  },
);

describe('the wallet-sandbox bin', () => {
  it('prints its URL, answers the API, and exits 0 on SIGTERM', async () => {
    const sandbox = await startBin(['--port', '0']);
    const response = await fetch(`${sandbox.url}/v1/charges/verify/nope`, {
      headers: { authorization: 'Bearer sk_test_smoke' },
    });
    assert.equal(response.status, 404);
    assert.equal(await sandbox.stop(), 0);
  });
});

function tsc(config) {
  return run(node, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', config], { cwd: project });
}

/** Starts the installed bin through its node_modules/.bin link, as `npx wallet-sandbox` would. */
function startBin(args) {
  const child = spawn(join(project, 'node_modules/.bin/wallet-sandbox'), args, {
    cwd: project,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('wallet-sandbox printed no URL within 10 s')), 10_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`wallet-sandbox exited with ${code} before listening`)));
  });
}
