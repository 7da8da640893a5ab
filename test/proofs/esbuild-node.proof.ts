import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build, type Message } from 'esbuild';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { expectMerchantFlow, expectWebhooks, merchantProject, runCli, servedSandbox } from './harness.js';
import { proof } from './pending.js';
import { recordFigure } from './timing.js';

// A merchant's Node service (a Lambda, say) bundled into one file with everything in it, undici
// included. Its input comes from the environment so the bundle is the same for every run.
const MAIN = `import { runScenario } from './scenario.js';
void (async () => {
  const input = JSON.parse(process.env.SCENARIO_INPUT ?? '{}');
  console.log(JSON.stringify(await runScenario('node ' + process.version, input)));
})();
`;

const formats = [
  { format: 'cjs' as const, outfile: 'out/app.cjs' },
  { format: 'esm' as const, outfile: 'out/app.mjs' },
];

let app: Awaited<ReturnType<typeof merchantProject>>;
beforeAll(async () => void (app = await merchantProject({ 'main.ts': MAIN })));
afterAll(() => app?.remove());

describe.each(formats)(
  'an esbuild bundle of a Node app ($format), from the packed tarball',
  ({ format, outfile }) => {
    let warnings: Message[];
    let packages: string[];
    beforeAll(async () => {
      const result = await build({
        absWorkingDir: app.dir,
        entryPoints: ['main.ts'],
        outfile,
        bundle: true,
        platform: 'node',
        target: 'node20',
        format,
        metafile: true,
        logLevel: 'silent',
      });
      warnings = result.warnings;
      packages = [
        ...new Set(
          Object.keys(result.metafile.inputs).flatMap(
            (input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? [],
          ),
        ),
      ].sort();
      recordFigure(
        `esbuild ${format} bundle of the Node app`,
        `${statSync(join(app.dir, outfile)).size} bytes`,
      );
    });

    proof('bundles with no warnings', () => {
      expect(warnings.map((w) => `${w.location?.file ?? ''}: ${w.text}`)).toEqual([]);
    });

    proof('sees the whole module graph: the SDK and the undici it sends with are inside the bundle', () => {
      // Every import in the package is static or a literal specifier (the contract's Entry points).
      expect(packages).toEqual(['@wallet/node', 'undici']);
    });

    proof(
      'runs on its own (no node_modules beside it) the whole flow and the webhook checks against the loopback sandbox',
      async () => {
        // Deployed as a Lambda is: the one file, nothing to resolve from.
        const deployed = mkdtempSync(join(tmpdir(), 'wallet-deployed-'));
        copyFileSync(join(app.dir, outfile), join(deployed, basename(outfile)));
        const served = await servedSandbox();
        try {
          const report = await runCli(process.execPath, [basename(outfile)], {
            cwd: deployed,
            env: { SCENARIO_INPUT: JSON.stringify(served.input) },
            timeoutMs: 30_000,
          });
          expectMerchantFlow(report, served.sandbox, served.input);
          expectWebhooks(report, served.input, 'works');
        } finally {
          await served.close();
          rmSync(deployed, { recursive: true, force: true });
        }
      },
    );
  },
);
