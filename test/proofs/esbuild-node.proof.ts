import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build, type Message } from 'esbuild';
import { minify } from 'terser';
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
    let computed: string[];
    let externals: string[];
    let inputs: string[];
    let builtins: string[];
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
      const text = result.outputFiles?.[0]?.text ?? readFileSync(join(app.dir, outfile), 'utf8');
      // An import() or require() whose specifier is computed is one esbuild could not follow.
      computed = [
        ...text.matchAll(/\b(?:import|require)\s*\(\s*(?:\/\*.*?\*\/\s*)*([A-Za-z_$][\w$.]*)\s*\)/gs),
      ].map((m) => m[0].replace(/\s+/g, ' '));
      externals = Object.values(result.metafile.inputs).flatMap((input) =>
        input.imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => i.path),
      );
      inputs = Object.keys(result.metafile.inputs);
      builtins = [
        ...new Set(
          Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path)),
        ),
      ].filter((path) => isBuiltin(path) || path.startsWith('node:'));
      recordFigure(
        `esbuild ${format} bundle of the Node app`,
        `${statSync(join(app.dir, outfile)).size} bytes`,
      );
    });

    proof('bundles with no warnings', () => {
      expect(warnings.map((w) => `${w.location?.file ?? ''}: ${w.text}`)).toEqual([]);
    });

    proof(
      'sees the whole module graph: no computed import() or require(), nothing outside but Node builtins',
      () => {
        // Every import in the package is static or a literal specifier (the contract's Entry points),
        // so the transport the SDK sends with is inside the bundle, not looked up beside it.
        expect(computed).toEqual([]);
        expect(externals).toEqual([]);
      },
    );

    proof("holds only undici's dispatcher parts: not its root, fetch or cache (no node:sqlite)", () => {
      // The Agent and, for a proxy, the ProxyAgent come bundled inside the package's own files.
      expect(inputs.filter((path) => /node_modules\/undici\//.test(path))).toEqual([]);
      expect(builtins.filter((path) => /sqlite|http2|worker_threads/.test(path))).toEqual([]);
    });

    proof(
      `runs as ${format} on its own (no node_modules beside it): the whole flow and the webhook checks`,
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

// webpack's production build minifies with terser (compress passes: 2, its default), which inlined
// the error constructor's class lookup into a function of its own where `new.target` is undefined.
describe('the same bundle minified by terser as webpack minifies it', () => {
  proof(
    'runs the whole flow, each error keeping its class and code; a forgery still answered 400',
    async () => {
      const bundled = await build({
        absWorkingDir: app.dir,
        entryPoints: ['main.ts'],
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'esm',
        write: false,
        logLevel: 'silent',
      });
      const minified = await minify(bundled.outputFiles[0]!.text, { module: true, compress: { passes: 2 } });
      const deployed = mkdtempSync(join(tmpdir(), 'wallet-minified-'));
      writeFileSync(join(deployed, 'app.mjs'), String(minified.code));
      const served = await servedSandbox();
      try {
        const report = await runCli(process.execPath, ['app.mjs'], {
          cwd: deployed,
          env: { SCENARIO_INPUT: JSON.stringify(served.input) },
          timeoutMs: 30_000,
        });
        expectMerchantFlow(report, served.sandbox, served.input);
        expect(report.flow).toMatchObject({ value: { overRefund: { code: 'unprocessable_entity' } } });
        expectWebhooks(report, served.input, 'works');
      } finally {
        await served.close();
        rmSync(deployed, { recursive: true, force: true });
      }
    },
  );
});
