/**
 * A real `redis-server` for a test: started on a free loopback port with no persistence, stopped by
 * the test. `.ci/run` installs Debian's redis-server when it is missing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A running redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** Its port. */
  port: number;
  /** Stops it (SIGTERM, then SIGKILL after 2 s) and waits for it to exit. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and commands are taken in, but nothing answers. */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void;
}

/** A loopback port free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Fails with the install hint when there is no redis-server on PATH. */
export function requireRedisServer(): void {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.status !== 0) {
    throw new Error('redis-server is not installed: apt-get install redis-server (.ci/run does this).');
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Starts redis-server on a free loopback port and resolves once it accepts connections. */
export async function startRedis(port?: number): Promise<RedisServer> {
  requireRedisServer();
  const chosen = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(chosen),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited(child);
      clearTimeout(force);
    },
  };
}
