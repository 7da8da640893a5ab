import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// What a merchant's editor shows, asked of the TypeScript language service as an editor asks it:
// the completions offered inside a string, and the errors reported on the file they typed. The
// merchant's file imports the SDK's source, under the project's own strict settings.

const root = fileURLToPath(new URL('..', import.meta.url));
const merchantFile = join(root, 'test', 'merchant-editor.tmp.ts');

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return { ...parsed.options, isolatedDeclarations: false, declaration: false, noEmit: true };
}

let text = '';
let version = 0;
let service: ts.LanguageService;

beforeAll(() => {
  const options = compilerOptions();
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [merchantFile],
    getScriptVersion: (file) => (file === merchantFile ? String(version) : '0'),
    getScriptSnapshot: (file) => {
      if (file === merchantFile) return ts.ScriptSnapshot.fromString(text);
      return ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(readFileSync(file, 'utf8')) : undefined;
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (file) => file === merchantFile || ts.sys.fileExists(file),
    readFile: (file) => (file === merchantFile ? text : ts.sys.readFile(file)),
    readDirectory: (...args) => ts.sys.readDirectory(...args),
    directoryExists: (dir) => ts.sys.directoryExists(dir),
    getDirectories: (dir) => ts.sys.getDirectories(dir),
  };
  service = ts.createLanguageService(host, ts.createDocumentRegistry());
}, 60_000);

const IMPORTS = `import { Wallet, isWalletError } from '../src/index.js';\nconst wallet = new Wallet();\n`;

/** Types `code` (with `|` where the cursor is) and returns the editor's completions there. */
function completionsAt(code: string): string[] {
  const full = IMPORTS + code;
  const at = full.indexOf('|');
  text = full.slice(0, at) + full.slice(at + 1);
  version++;
  const found = service.getCompletionsAtPosition(merchantFile, at, { triggerCharacter: "'" });
  return (found?.entries ?? []).map((entry) => entry.name);
}

/** The errors the editor underlines in `code`, as `TS<number>`. */
function errorsIn(code: string): string[] {
  text = IMPORTS + code;
  version++;
  return service.getSemanticDiagnostics(merchantFile).map((d) => `TS${d.code}`);
}

const CATCH = (body: string): string =>
  `export async function pay(): Promise<void> {\n  try {\n    await wallet.charges.verify('order_1042');\n  } catch (error) {\n    if (!isWalletError(error)) throw error;\n${body}\n  }\n}\n`;

const VERIFY = (body: string): string =>
  `export async function check(): Promise<void> {\n  const tx = await wallet.charges.verify('order_1042');\n${body}\n}\n`;

describe("a merchant's editor on the SDK's errors", () => {
  it("offers every error code inside a switch on error.code's case, and nothing else", () => {
    const offered = completionsAt(CATCH(`switch (error.code) {\n  case '|': break;\n}`));
    expect(offered).toEqual(
      expect.arrayContaining([
        'not_found',
        'endpoint_not_found',
        'connection_timeout',
        'rate_limited',
        'replay_mismatch',
        'idempotency_key_reused',
        'webhook_signature_mismatch',
        'invalid_response',
      ]),
    );
    expect(offered.every((name) => /^[a-z_]+$/.test(name))).toBe(true);
    expect(offered.length).toBeGreaterThanOrEqual(30);
  });

  it('refuses to compile a made-up code in a case, or a comparison with one', () => {
    expect(errorsIn(CATCH(`switch (error.code) {\n  case 'not_found': break;\n}`))).toEqual([]);
    expect(errorsIn(CATCH(`switch (error.code) {\n  case 'totally_made_up_code': break;\n}`))).toEqual([
      'TS2678',
    ]);
    expect(errorsIn(CATCH(`if (error.code === 'notfound') return;`))).toEqual(['TS2367']);
  });

  it('offers the class names for error.name, and refuses a made-up one', () => {
    const offered = completionsAt(CATCH(`if (error.name === '|') return;`));
    expect(offered).toEqual(
      expect.arrayContaining(['NotFoundError', 'ConnectionTimeoutError', 'IdempotencyError', 'WalletError']),
    );
    expect(errorsIn(CATCH(`if (error.name === 'NotFoundError') return;`))).toEqual([]);
    expect(errorsIn(CATCH(`if (error.name === 'NotFound') return;`))).toEqual(['TS2367']);
  });
});

describe("a merchant's editor on a verified transaction", () => {
  it('offers the documented statuses after tx.status ===', () => {
    const offered = completionsAt(VERIFY(`  if (tx.status === '|') return;`));
    expect(offered).toEqual(expect.arrayContaining(['SUCCESS', 'FAILED', 'PENDING_AUTHORIZATION']));
  });

  it("knows the paid fields are set after tx.status === 'SUCCESS', and not before", () => {
    const paid = `  if (tx.status === 'SUCCESS') {\n    const fee: number = tx.fee;\n    const net: number = tx.netAmount;\n    const at: string = tx.paidAt;\n    console.log(fee, net, at);\n  }`;
    expect(errorsIn(VERIFY(paid))).toEqual([]);
    const inSwitch = `  switch (tx.status) {\n    case 'SUCCESS': {\n      const fee: number = tx.fee;\n      console.log(fee);\n      break;\n    }\n  }`;
    expect(errorsIn(VERIFY(inSwitch))).toEqual([]);
    // Not paid, or not checked: the fee may be absent or null, and the editor says so.
    const unpaid = `  if (tx.status !== 'SUCCESS') {\n    const fee: number = tx.fee;\n    console.log(fee);\n  }`;
    expect(errorsIn(VERIFY(unpaid))).toEqual(['TS2322']);
    expect(errorsIn(VERIFY(`  const fee: number = tx.fee;\n  console.log(fee);`))).toEqual(['TS2322']);
  });

  it('refuses a misspelled status, and takes a status added later when compared as a string', () => {
    expect(errorsIn(VERIFY(`  if (tx.status === 'SUCCESSFUL') return;`))).toEqual(['TS2367']);
    expect(errorsIn(VERIFY(`  if ((tx.status as string) === 'REVERSED') return;`))).toEqual([]);
    expect(errorsIn(VERIFY(`  const status: string = tx.status;\n  console.log(status);`))).toEqual([]);
  });
});
