/**
 * A guide's server as the proofs run it: a process started in a fresh project, listening on a free
 * loopback port, whose output is what the merchant's own code printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free port on 127.0.0.1 (a guide's default port may be taken on a shared machine). */
/** A merchant's strict NodeNext project compiling `files` to out/. */
export function merchantTsconfig(files: readonly string[]): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node'],
      outDir: 'out',
    },
    include: files,
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface Running {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
}

/**
 * Starts `command args` in `cwd` and resolves once its output matches `ready`; rejects with its
 * output if it exits first or is not ready within `timeoutMs` (then it is killed).
 */
export function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; ready: RegExp; timeoutMs?: number },
): Promise<Running> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} was not ready (${String(options.ready)}):\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!options.ready.test(output)) return;
      clearTimeout(timer);
      resolve({ child, output: () => output });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited ${code}:\n${output}`));
    });
  });
}

/** POSTs `body` to a webhook URL, signed with `signature` when given: what the server answered. */
export async function deliver(
  url: string,
  body: string,
  signature?: string,
): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'x-wallet-signature': signature }),
    },
    body,
  });
  return { status: response.status, body: await response.text() };
}
