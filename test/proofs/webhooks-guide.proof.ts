/**
 * The webhooks guide's Express 5, Fastify 5 and Hono snippets, and its Express route with a Redis
 * `dedupe` store (on a real redis-server, which the proof stage installs), as written: each is
 * read from docs/webhooks.md at run time, written into a fresh project that installs the packed
 * tarball and the framework (versions of test/proofs/package.json), type-checked under strict
 * settings against the tarball's and the framework's own types, compiled, and started on a
 * loopback port. Then deliveries as Wallet sends them (signed with signWebhook) and as a forger
 * would. What the merchant observes is what `fulfilOrder`, the guide's name for their own code,
 * printed.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { signWebhook } from '@wallet/node/testing';

import { startRedis, type RedisServer } from '../redis/server.js';
import { deliver, freePort, merchantTsconfig, startServer, type Running } from './guide-server.js';
import { guideSnippet } from './guide-snippets.js';
import { freshProject, proofVersion, removePacked } from './pack.mjs';
import { proof } from './pending.js';

const GUIDE = 'docs/webhooks.md';
const SECRET = 'whsec_guide_proof_4eC39HqLyjWDarjt';
const EXPRESS_LISTEN = `app.listen(PORT, '127.0.0.1', () => console.log('listening'));`;

/**
 * Per snippet: the guide's heading, what to install, how the merchant's app listens, and whether
 * it uses a dedupe store (then a second instance shares it, as behind a load balancer).
 */
const SNIPPETS = [
  {
    name: 'Express 5',
    slug: 'express',
    heading: '### Express',
    dependencies: ['express', '@types/express'],
    listen: EXPRESS_LISTEN,
    dedupe: false,
  },
  {
    name: 'Express 5 with redisDedupeStore',
    slug: 'express-dedupe',
    heading: '## Handling each event once: `dedupe`',
    dependencies: ['express', '@types/express', 'redis'],
    listen: EXPRESS_LISTEN,
    dedupe: true,
  },
  {
    name: 'Fastify 5',
    slug: 'fastify',
    heading: '### Fastify',
    dependencies: ['fastify'],
    listen: `await app.listen({ port: PORT, host: '127.0.0.1' });\nconsole.log('listening');`,
    dedupe: false,
  },
  {
    name: 'Hono 4 on Node',
    slug: 'hono',
    heading: '### Hono on Node',
    dependencies: ['hono', '@hono/node-server'],
    listen: [
      `import { serve } from '@hono/node-server';`,
      `serve({ fetch: app.fetch, port: PORT, hostname: '127.0.0.1' }, () => console.log('listening'));`,
    ].join('\n'),
    dedupe: false,
  },
] as const;

/** The guide's snippet word for word, then what the guide leaves to the merchant. */
const server = (snippet: string, listen: string): string => `${snippet}
// The merchant's own code, which the guide leaves to you: ship the order (here, say so).
import type { ChargeSuccessData } from '@wallet/node/webhooks';
async function fulfilOrder(data: ChargeSuccessData): Promise<void> {
  console.log(\`fulfilled \${JSON.stringify(data)}\`);
}
const PORT = Number(process.env.PORT);
${listen}
`;

const TSCONFIG = merchantTsconfig(['server.ts']);

/** Starts `node out/server.js` and resolves once it printed `listening`. */
const start = (dir: string, port: number, env: Record<string, string>): Promise<Running> =>
  startServer(process.execPath, ['out/server.js'], {
    cwd: dir,
    env: { PORT: String(port), WALLET_WEBHOOK_SECRET: SECRET, ...env },
    ready: /^listening$/m,
  });

/** The orders `fulfilOrder` shipped, in the order it shipped them. */
const fulfilled = (output: string): unknown[] =>
  [...output.matchAll(/^fulfilled (.*)$/gm)].map((line) => JSON.parse(line[1]!) as unknown);

const event = (reference: string) => ({
  event: 'charge.success',
  data: { reference, amount: 500_000, customer: { handle: '@ada' } },
});
const RECEIVED = { status: 200, body: '{"received":true}' };
const REFUSED = { status: 400, body: '{"received":false}' };

const projects: { remove: () => void }[] = [];
afterAll(() => {
  for (const project of projects) project.remove();
  removePacked();
});

describe.each(SNIPPETS)('the webhooks guide’s $name snippet, as written', (snippet) => {
  let typecheck: { status: number | null; output: string };
  /** The instances started (two with a dedupe store), each with its webhook URL. */
  const instances: (Running & { url: string })[] = [];
  let redis: RedisServer | undefined;

  beforeAll(async () => {
    const dependencies = Object.fromEntries(
      [...snippet.dependencies, 'typescript', '@types/node'].map((name) => [name, proofVersion(name)]),
    );
    const code = server(guideSnippet(GUIDE, snippet.heading), snippet.listen);
    const project = await freshProject({
      name: `webhooks-guide-${snippet.slug}`,
      dependencies,
      files: { 'server.ts': code, 'tsconfig.json': TSCONFIG },
    });
    projects.push(project);
    const tsc = spawnSync(join(project.dir, 'node_modules/.bin/tsc'), ['-p', '.'], {
      cwd: project.dir,
      encoding: 'utf8',
    });
    typecheck = { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` };
    if (tsc.status !== 0) return;
    redis = snippet.dedupe ? await startRedis() : undefined;
    const env: Record<string, string> = redis ? { REDIS_URL: redis.url } : {};
    for (let i = 0; i < (snippet.dedupe ? 2 : 1); i++) {
      const port = await freePort();
      const running = await start(project.dir, port, env);
      instances.push({ ...running, url: `http://127.0.0.1:${port}/webhooks/wallet` });
    }
  });
  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGTERM');
    await redis?.stop();
  });

  const post = (body: string, signature?: string, to = instances[0]!.url) => deliver(to, body, signature);
  /** What every instance shipped for `reference`. */
  const shipped = (reference: string): unknown[] =>
    instances
      .flatMap((instance) => fulfilled(instance.output()))
      .filter((data) => (data as { reference: string }).reference === reference);

  proof('type-checks under strict settings against the packed types, and starts', () => {
    expect(typecheck.status, typecheck.output).toBe(0);
    expect(instances.map((instance) => instance.child.exitCode)).toEqual(
      snippet.dedupe ? [null, null] : [null],
    );
  });

  proof(
    'forged deliveries are answered 400 and never reach onEvent; the genuine one 200, run once',
    async () => {
      expect(typecheck.status, typecheck.output).toBe(0);
      const reference = `order_guide_${snippet.slug}`;
      const genuine = signWebhook(event(reference), SECRET);
      // Signed with another secret, the body changed after signing, and no signature at all.
      expect(await post(genuine.body, signWebhook(event(reference), 'whsec_forger').signature)).toEqual(
        REFUSED,
      );
      expect(await post(genuine.body.replace('500000', '1'), genuine.signature)).toEqual(REFUSED);
      expect(await post(genuine.body)).toEqual(REFUSED);

      expect(await post(genuine.body, genuine.signature)).toEqual(RECEIVED);
      // The handler answers 200 once onEvent resolved; its line is in the pipe after any forged one.
      await expect.poll(() => shipped(reference).length).toBe(1);
      expect(shipped(reference)).toEqual([event(reference).data]);
    },
  );

  if (snippet.dedupe)
    proof(
      'a redelivery, to this instance or another sharing the store, is answered 200 and never runs onEvent again',
      async () => {
        expect(typecheck.status, typecheck.output).toBe(0);
        const reference = `order_guide_again_${snippet.slug}`;
        const genuine = signWebhook(event(reference), SECRET);
        expect(await post(genuine.body, genuine.signature)).toEqual(RECEIVED);
        await expect.poll(() => shipped(reference).length).toBe(1);
        expect(await post(genuine.body, genuine.signature)).toEqual(RECEIVED);
        expect(await post(genuine.body, genuine.signature, instances[1]!.url)).toEqual(RECEIVED);
        // A copy that ran printed before its 200, but the pipe may lag the socket: a fresh event sent
        // to each instance after them shows each pipe has caught up.
        for (const [i, instance] of instances.entries()) {
          const after = signWebhook(event(`${reference}_after_${i}`), SECRET);
          expect(await post(after.body, after.signature, instance.url)).toEqual(RECEIVED);
          await expect.poll(() => shipped(`${reference}_after_${i}`).length).toBe(1);
        }
        expect(shipped(reference)).toEqual([event(reference).data]);
      },
    );
  else
    proof(
      'a second delivery of the same event is acknowledged 200; with no dedupe store it runs onEvent again',
      async () => {
        expect(typecheck.status, typecheck.output).toBe(0);
        const reference = `order_guide_again_${snippet.slug}`;
        const genuine = signWebhook(event(reference), SECRET);
        for (let i = 0; i < 2; i++) expect(await post(genuine.body, genuine.signature)).toEqual(RECEIVED);
        // What the guide says: without `dedupe`, each copy runs onEvent, so fulfilOrder must be idempotent.
        await expect.poll(() => shipped(reference).length).toBe(2);
      },
    );
});
