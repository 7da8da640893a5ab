// The src/ modules one `charges.verify` loads, counted by running it: a fresh Node process loads
// the client from the sources (through tsx), builds a `Wallet`, verifies one charge against a
// loopback server, and a module hook lists every src/ file resolved on the way, lazy ones included.
// `node scripts/verify-modules.mjs` counts from src/client.ts (the verify path: the class and
// what its call loads); `--root` from src/index.ts (the whole public surface, webhooks included).
// Prints the files and their count. Needs the devDependencies (tsx).
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = pathToFileURL(resolve(REPO, 'src')).href + '/';
const ENTRY = process.argv.includes('--root') ? 'src/index.ts' : 'src/client.ts';

// The hooks run on their own thread; writeSync so no line is lost when the child exits.
const HOOK = `import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  writeSync(2, 'LOADED ' + result.url + '\\n');
  return result;
}`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;
const RUN = `import { createServer } from 'node:http';
const server = createServer((_, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ status: 'success', data: { reference: 'r', amount: 500000, currency: 'NGN', fee: 10000,
    netAmount: 490000, status: 'SUCCESS', channel: 'wallet_push', paidAt: '2026-11-21T10:01:00.000Z',
    customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
    settlement: { status: 'SETTLED', settledAt: '2026-11-21T12:00:00.000Z' } } }));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const { Wallet } = await import(${JSON.stringify(pathToFileURL(resolve(REPO, ENTRY)).href)});
const wallet = new Wallet({ apiKey: 'sk_test_modules', baseUrl: 'http://127.0.0.1:' + server.address().port });
console.log((await wallet.charges.verify('r')).status);
await wallet.close();
server.close();`;

const run = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--import',
    `data:text/javascript,${encodeURIComponent(REGISTER)}`,
    '--input-type=module',
    '-e',
    RUN,
  ],
  { cwd: REPO, encoding: 'utf8', timeout: 30_000 },
);
if (run.status !== 0 || run.stdout.trim() !== 'SUCCESS') {
  console.error(
    run.stdout,
    run.stderr
      .split('\n')
      .filter((l) => !l.startsWith('LOADED '))
      .join('\n'),
  );
  process.exit(1);
}
const modules = [
  ...new Set(
    run.stderr
      .split('\n')
      .filter((line) => line.startsWith('LOADED ' + SRC))
      .map((line) => line.slice(('LOADED ' + SRC).length).replace(/\?.*$/, '')),
  ),
].sort();
for (const file of modules) console.log(`src/${file}`);
console.log(`${modules.length} src/ modules for new Wallet() + charges.verify, from ${ENTRY}`);
