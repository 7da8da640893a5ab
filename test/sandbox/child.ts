/**
 * Child processes for the bin, demo and README tests: started with tsx from the sources (or with
 * plain node, as a merchant runs a script), read line by line, and always stopped by the test that
 * started them.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Child {
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line matching, or rejects after `timeoutMs` or on exit. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal) once the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills it if it is still running. */
  kill(): void;
}

/** Starts a TypeScript file from the sources with tsx. */
export function startTs(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Child {
  return start(['--import', 'tsx', script, ...args], env);
}

/** Starts a JavaScript file with plain node. */
export function startNode(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Child {
  return start([script, ...args], env);
}

function start(argv: readonly string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    waitForLine: (pattern, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = out
            .split('\n')
            .map((line) => pattern.exec(line))
            .find((m) => m !== null);
          if (match) finish(() => resolve(match));
        };
        const timer = setTimeout(
          () =>
            finish(() => reject(new Error(`no line matching ${pattern} in ${timeoutMs} ms; stderr: ${err}`))),
          timeoutMs,
        );
        const onExit = (): void =>
          finish(() => reject(new Error(`exited before ${pattern}; stderr: ${err}`)));
        const finish = (settle: () => void): void => {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.off('exit', onExit);
          settle();
        };
        child.stdout.on('data', check);
        child.once('exit', onExit);
        check();
      }),
  };
}
