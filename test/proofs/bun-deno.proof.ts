import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';

import { expectMerchantFlow, expectWebhooks, merchantProject, runCli, servedSandbox } from './harness.js';
import { proofBin } from './pack.mjs';

// The project's entry: its input from a JSON file, so neither runtime needs its own globals for it.
const MAIN = `import input from './input.json' with { type: 'json' };
import { runScenario } from './scenario.ts';
const runtime = globalThis.Bun ? 'bun ' + globalThis.Bun.version : 'deno ' + globalThis.Deno.version.deno;
console.log(JSON.stringify(await runScenario(runtime, input)));
`;

const runtimes = [
  { name: 'Bun', command: proofBin('bun'), args: ['main.ts'], env: {} },
  {
    name: 'Deno',
    command: proofBin('deno'),
    // Only what a merchant's API client needs: the network to the sandbox, reading its own modules,
    // and the environment (the SDK's env fallbacks). Sloppy imports: the files import './x.js' as
    // TypeScript on Node does. Deno reads the project's node_modules (package.json present).
    args: [
      'run',
      '--no-lock',
      '--sloppy-imports',
      '--allow-net=127.0.0.1',
      '--allow-read',
      '--allow-env',
      'main.ts',
    ],
    env: { DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' },
  },
];

let app: Awaited<ReturnType<typeof merchantProject>>;
beforeAll(async () => void (app = await merchantProject({ 'main.ts': MAIN })));
afterAll(() => app.remove());

describe.each(runtimes)('the packed tarball in $name', ({ command, args, env }) => {
  let served: Awaited<ReturnType<typeof servedSandbox>>;
  let report: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    served = await servedSandbox();
    writeFileSync(join(app.dir, 'input.json'), JSON.stringify(served.input));
    report = await runCli(command, args, { cwd: app.dir, env, timeoutMs: 60_000 });
  });
  afterAll(() => served.close());

  it('runs resolve → dispatch → verify → refund against the loopback sandbox', () => {
    expectMerchantFlow(report, served.sandbox, served.input);
  });

  it('verifies a signed webhook (sync, Web Crypto and the Fetch handler) and refuses a forged one', () => {
    expectWebhooks(report, served.input, 'works');
  });
});
