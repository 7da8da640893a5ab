/**
 * The real bins as subprocesses: `wallet` (this package's dist/bin.js) and `wallet-sandbox` (the
 * SDK's), with a clean environment so nothing from the developer's shell leaks into a test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
export const SANDBOX_BIN = fileURLToPath(new URL('../../../../dist/wallet-sandbox.js', import.meta.url));
export const TEST_KEY = 'sk_test_cli_4eC39HqLyjWDarjtT1zdp7dc';

/** What a finished `wallet` run printed and its exit code. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: PATH and HOME only, plus what the test gives. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Runs `wallet ARGS` to its end. */
export function wallet(
  args: readonly string[],
  options: {
    env?: Record<string, string | undefined>;
    input?: string;
    cwd?: string;
    onSpawn?: (child: ChildProcess) => void;
  } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      env: cleanEnv(options.env),
      cwd: options.cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that exits before reading its input (a usage error) closes the pipe: EPIPE, not a failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    options.onSpawn?.(child);
  });
}

/** A running `wallet-sandbox`. */
export interface SandboxProcess {
  url: string;
  stop(): Promise<void>;
}

/** Starts `wallet-sandbox --port 0 ARGS` and waits for its listening line. */
export function startSandbox(args: readonly string[] = []): Promise<SandboxProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SANDBOX_BIN, '--port', '0', '--quiet', ...args], {
      env: cleanEnv(),
    });
    let seen = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (seen += c));
    child.on('exit', (code) => reject(new Error(`wallet-sandbox exited ${code}: ${seen}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (!match?.[1]) return;
      child.removeAllListeners('exit');
      resolve({
        url: match[1],
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
