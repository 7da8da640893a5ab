/**
 * `wallet sandbox [flags]`: the development server, which is the SDK's own `wallet-sandbox` bin,
 * run with the same flags so the two never drift apart.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The path of `@wallet/node`'s `wallet-sandbox` bin, as installed beside this package. */
export function sandboxBin(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@wallet/node/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: Record<string, string> };
  const bin = manifest.bin?.['wallet-sandbox'] ?? './dist/wallet-sandbox.js';
  return join(dirname(manifestPath), bin);
}

/** Runs the sandbox until it exits (Ctrl-C reaches it too); resolves to its exit code. */
export function sandboxCommand(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [sandboxBin(), ...args], { stdio: 'inherit' });
    // The terminal sends Ctrl-C to both processes; this one waits for the sandbox to close.
    const ignore = (): void => undefined;
    process.on('SIGINT', ignore);
    process.on('SIGTERM', () => child.kill('SIGTERM'));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
    });
  });
}
