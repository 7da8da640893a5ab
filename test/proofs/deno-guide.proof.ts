/**
 * The webhooks guide's Deno snippet, as written: read from docs/webhooks.md at run time, written
 * into a fresh project that installs the packed tarball (Deno reads the project's node_modules, as
 * in bun-deno.proof.ts), and run with the proof install's Deno and the two flags the guide names,
 * on the port and host a merchant's platform sets. Then deliveries as Wallet sends them and as a
 * forger would; what the merchant observes is what their `onEvent` printed.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { signWebhook } from '@wallet/node/testing';

import { deliver, freePort, startServer, type Running } from './guide-server.js';
import { guideSnippet } from './guide-snippets.js';
import { freshProject, proofBin, removePacked } from './pack.mjs';
import { proof } from './pending.js';

const SECRET = 'whsec_guide_proof_4eC39HqLyjWDarjt';

/** The guide's snippet word for word, then the `onEvent` the guide leaves to the merchant. */
const server = (snippet: string): string => `${snippet}
// The merchant's own code, which the guide leaves to you: here it says what it handled.
import type { WebhookEvent } from '@wallet/node/webhooks';
async function onEvent(event: WebhookEvent): Promise<void> {
  console.log(\`handled \${JSON.stringify(event)}\`);
}
`;

/** The events `onEvent` handled, in order. */
const handled = (output: string): unknown[] =>
  [...output.matchAll(/^handled (.*)$/gm)].map((line) => JSON.parse(line[1]!) as unknown);

const event = (reference: string) => ({
  event: 'charge.success',
  data: { reference, amount: 500_000, customer: { handle: '@ada' } },
});

describe('the webhooks guide’s Deno snippet, run as written with deno run --allow-env --allow-net', () => {
  let project: Awaited<ReturnType<typeof freshProject>>;
  let running: Running;
  let url: string;

  beforeAll(async () => {
    const snippet = guideSnippet('docs/webhooks.md', '### Bun, Deno, Cloudflare Workers');
    // The command the snippet's own comment gives, flags and file name included.
    const command = /\/\/ deno (run(?: --[\w-]+(?:=\S+)?)*) (\w+\.ts)\b/.exec(snippet);
    if (!command) throw new Error(`the guide's Deno snippet names no \`deno run … x.ts\`:\n${snippet}`);
    const [, run, file] = command as unknown as [string, string, string];
    project = await freshProject({ name: 'webhooks-guide-deno', files: { [file]: server(snippet) } });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/webhooks/wallet`;
    running = await startServer(proofBin('deno'), [...run.split(' '), file], {
      cwd: project.dir,
      env: {
        HOME: project.dir,
        DENO_NO_UPDATE_CHECK: '1',
        DENO_NO_PROMPT: '1',
        PORT: String(port),
        HOST: '127.0.0.1',
        WALLET_WEBHOOK_SECRET: SECRET,
      },
      ready: /Listening on http:\/\/127\.0\.0\.1:\d+/,
    });
  });
  afterAll(() => {
    running?.child.kill('SIGTERM');
    project?.remove();
    removePacked();
  });

  proof('runs with the flags its comment names, listening on the PORT and HOST it was given', () => {
    expect(running.output()).toContain(`Listening on ${new URL(url).origin}/`);
    expect(running.child.exitCode).toBe(null);
  });

  proof(
    'a forged delivery is answered 400 and never reaches onEvent; the genuine one 200, run once',
    async () => {
      const genuine = signWebhook(event('order_guide_deno'), SECRET);
      // Signed with another secret, the body changed after signing, and no signature at all.
      const forged = signWebhook(event('order_guide_deno'), 'whsec_forger');
      const refused = { status: 400, body: '{"received":false}' };
      expect(await deliver(url, genuine.body, forged.signature)).toEqual(refused);
      expect(await deliver(url, genuine.body.replace('500000', '1'), genuine.signature)).toEqual(refused);
      expect(await deliver(url, genuine.body)).toEqual(refused);

      expect(await deliver(url, genuine.body, genuine.signature)).toEqual({
        status: 200,
        body: '{"received":true}',
      });
      // onEvent printed before the 200; the pipe may lag the socket.
      await expect.poll(() => handled(running.output()).length).toBe(1);
      expect(handled(running.output())).toEqual([event('order_guide_deno')]);
    },
  );
});
