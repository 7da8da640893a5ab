import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { extractExamples, extractMarkdownExamples, type TsDocExample } from './extract-examples.js';

// Every `@example` in src/, and every TypeScript block of the guides listed below, compiles under
// the project's own strict settings, as a merchant would paste it: public names it uses without
// importing are imported from the entry that exports them, the frameworks a block imports
// (express, fastify, hono, ai) are the real packages with their own types, and the few variables
// examples take as given (`wallet`, `sandbox`, the merchant's `fulfilOrder`, …) come from
// example-context.d.ts.

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = [
  ['@wallet/node', 'src/index.ts'],
  ['@wallet/node/webhooks', 'src/webhooks.ts'],
  ['@wallet/node/testing', 'src/testing.ts'],
] as const;
/** Guides whose TypeScript blocks are held to the same rule. */
const GUIDES = [
  'README.md',
  'docs/getting-started.md',
  'docs/errors.md',
  'docs/webhooks.md',
  'docs/sandbox.md',
  'docs/observability.md',
  'docs/settlements.md',
  'docs/reconciliation.md',
  'packages/agent-toolkit/README.md',
];
/** Guides whose blocks sit beside files they import (`./telemetry.js`): compiled in that folder. */
const BESIDE: Record<string, string> = { 'docs/observability.md': 'examples/otel' };
/**
 * Guides whose blocks are proven by a stronger test than compiling: each block is a region of a
 * test file that runs (test/testing-guide/snippets.test.ts).
 */
const RUN_ELSEWHERE = ['docs/testing.md'];

function compilerOptions(): ts.CompilerOptions {
  const file = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(file, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  // Examples are merchant code, not published declarations: every strict flag stays on.
  // The agent toolkit's README imports the workspace package: its sources, as for @wallet/node.
  const paths = {
    ...parsed.options.paths,
    '@wallet/agent-toolkit': ['./packages/agent-toolkit/src/index.ts'],
    '@wallet/agent-toolkit/ai': ['./packages/agent-toolkit/src/hosts/ai.ts'],
  };
  return { ...parsed.options, paths, isolatedDeclarations: false, declaration: false, noEmit: true };
}

interface Checked {
  example: TsDocExample;
  errors: string[];
}

function checkAll(): Checked[] {
  const options = compilerOptions();
  const examples = [...extractExamples(root), ...extractMarkdownExamples(root, GUIDES)];
  const entryFiles = ENTRIES.map(([, path]) => join(root, path));
  const context = join(root, 'test/docs/example-context.d.ts');

  // First pass: what each entry exports, and whether each name is a value (import) or a type.
  // One host for both programs, so each library file is parsed once.
  const host = ts.createCompilerHost(options);
  const parsed = new Map<string, ts.SourceFile | undefined>();
  const readSourceFile = host.getSourceFile.bind(host);
  const virtual = new Map<string, { text: string; example: TsDocExample; preludeLines: number }>();
  host.getSourceFile = (path, language, ...rest) => {
    const file = virtual.get(path);
    if (file) return ts.createSourceFile(path, file.text, language);
    if (!parsed.has(path)) parsed.set(path, readSourceFile(path, language, ...rest));
    return parsed.get(path);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (path) => virtual.has(path) || fileExists(path);

  const plain = ts.createProgram([...entryFiles], options, host);
  const checker = plain.getTypeChecker();
  const exportsByName = new Map<string, { from: string; typeOnly: boolean }>();
  for (const [specifier, path] of ENTRIES) {
    const source = plain.getSourceFile(join(root, path));
    const module = source && checker.getSymbolAtLocation(source);
    for (const symbol of module ? checker.getExportsOfModule(module) : []) {
      if (exportsByName.has(symbol.name)) continue;
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      exportsByName.set(symbol.name, {
        from: specifier,
        typeOnly: (target.flags & ts.SymbolFlags.Value) === 0,
      });
    }
  }

  examples.forEach((example, i) => {
    const imported = new Set(
      [...example.code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
        m[1]!.split(',').map((name) =>
          name
            .replace(/^\s*type\s+/, '')
            .trim()
            .split(/\s+as\s+/)
            .pop()!,
        ),
      ),
    );
    const byEntry = new Map<string, string[]>();
    for (const [name, { from, typeOnly }] of exportsByName) {
      if (imported.has(name) || !new RegExp(`\\b${name}\\b`).test(example.code)) continue;
      byEntry.set(from, [...(byEntry.get(from) ?? []), typeOnly ? `type ${name}` : name]);
    }
    const prelude = [...byEntry].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`);
    const folder = BESIDE[example.where.split(':')[0]!] ?? 'test/docs';
    const path = join(root, folder, `__example_${i}.ts`);
    const text = [...prelude, example.code, 'export {};'].join('\n');
    virtual.set(path, { text, example, preludeLines: prelude.length });
  });

  const program = ts.createProgram([...virtual.keys(), context], options, host, plain);
  return [...virtual].map(([path, { example, preludeLines }]) => {
    const source = program.getSourceFile(path)!;
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    const errors = diagnostics.map((d) => {
      const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
      const where = `${example.where.split(':')[0]}:${example.line + line - preludeLines}`;
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    return { example, errors };
  });
}

const results = checkAll();

describe('the @example blocks of the TSDoc and the TypeScript of the guides', () => {
  it('are found (the extractors still match how the sources write them)', () => {
    const where = results.map((r) => r.example.where.split(':')[0]);
    expect(where.filter((file) => file!.startsWith('src/')).length).toBeGreaterThan(15);
    for (const guide of GUIDES) expect(where).toContain(guide);
  });

  it('cover every guide that has TypeScript blocks (a new guide cannot slip past the check)', () => {
    const guides = [
      'README.md',
      ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`),
      ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/README.md`),
    ].filter((file) => file.endsWith('.md') && existsSync(join(root, file)));
    const withBlocks = guides.filter((file) => extractMarkdownExamples(root, [file]).length > 0);
    expect(withBlocks.filter((file) => !GUIDES.includes(file) && !RUN_ELSEWHERE.includes(file))).toEqual([]);
  });

  it.each(results.map((r) => [r.example.where, r] as const))(
    '%s compiles under strict settings',
    (_, result) => {
      expect(result.errors).toEqual([]);
    },
  );
});
