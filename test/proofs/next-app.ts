/**
 * What the Next.js proofs share: the webhooks guide's route (read from the guide, never copied),
 * the project's tsconfig and dependencies, and running `next build` / `next start` with a bare
 * environment on a free loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

import { signWebhook } from '@wallet/node/testing';

import { freePort } from './guide-server.js';
import { guideSnippet } from './guide-snippets.js';
import { proofVersion } from './pack.mjs';

/** The guide's route, with the merchant's own `fulfilOrder` that the guide leaves to them. */
export const WEBHOOK_ROUTE: string = `${guideSnippet('docs/webhooks.md', '### Next.js App Router')}
import type { ChargeSuccessData } from '@wallet/node/webhooks';
async function fulfilOrder(data: ChargeSuccessData): Promise<void> {
  console.log(\`paid: \${data.reference}, \${data.amount} Kobo\`);
}
`;

export const TSCONFIG: string = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    lib: ['dom', 'dom.iterable', 'esnext'],
    allowJs: true,
    skipLibCheck: true,
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    module: 'esnext',
    moduleResolution: 'bundler',
    resolveJsonModule: true,
    isolatedModules: true,
    jsx: 'react-jsx',
    incremental: true,
    plugins: [{ name: 'next' }],
  },
  include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts'],
  exclude: ['node_modules'],
});

export const DEPENDENCIES: Record<string, string> = Object.fromEntries(
  ['next', 'react', 'react-dom', 'typescript', '@types/react', '@types/node'].map((name) => [
    name,
    proofVersion(name),
  ]),
);

/** Only what any shell has: none of the WALLET_ variables. */
export function bareEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '/tmp',
    NEXT_TELEMETRY_DISABLED: '1',
    CI: 'true',
    ...extra,
  };
}

export type NextProcess = ChildProcess & { output: () => string };

export function runNext(dir: string, args: string[], env: Record<string, string>): NextProcess {
  const child = spawn(join(dir, 'node_modules/.bin/next'), args, {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** `next start` on a free loopback port, resolved once `path` answers at all. */
export async function startNext(
  dir: string,
  env: Record<string, string>,
  path: string,
): Promise<{ server: NextProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = runNext(dir, ['start', '-H', '127.0.0.1', '-p', String(port)], bareEnv(env));
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}${path}`);
      return { server, base };
    } catch {
      if (server.exitCode !== null || i > 600)
        throw new Error(`next start did not listen:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A forged delivery (400, never handled), then the genuine one (200, handled once). */
export async function expectWebhookRoute(
  next: { server: NextProcess; base: string },
  secret: string,
  path: string,
  reference: string,
): Promise<void> {
  const delivery = signWebhook(
    { event: 'charge.success', data: { reference, amount: 500_000, customer: { handle: '@ada' } } },
    secret,
  );
  const post = (body: string): Promise<Response> =>
    fetch(`${next.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wallet-signature': delivery.signature },
      body,
    });
  const forged = await post(delivery.body.replace('"amount":500000', '"amount":1'));
  expect(forged.status).toBe(400);
  const signed = await post(delivery.body);
  expect(signed.status, `${await signed.text()}\n${next.server.output()}`).toBe(200);
  // The route logs each paid charge it handles: this one once, the forged one never.
  await expect
    .poll(() => next.server.output().match(new RegExp(`paid: ${reference}, \\d+ Kobo`, 'g')))
    .toEqual([`paid: ${reference}, 500000 Kobo`]);
}
