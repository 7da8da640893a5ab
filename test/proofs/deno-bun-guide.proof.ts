/**
 * The webhooks guide's Deno and Bun snippets, as written: read from docs/webhooks.md at run time,
 * written into a fresh project that installs the packed tarball (both runtimes read the project's
 * node_modules, as in bun-deno.proof.ts), and run with the proof install's binary and the command
 * the snippet's own comment gives (Deno's flags included), on the port and host a merchant's
 * platform sets. Then deliveries as Wallet sends them and as a forger would; what the merchant
 * observes is what their `onEvent` printed.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';

import { signWebhook } from '@wallet/node/testing';

import { deliver, freePort, startServer, type Running } from './guide-server.js';
import { guideSnippet } from './guide-snippets.js';
import { freshProject, proofBin, removePacked } from './pack.mjs';
import { proof } from './pending.js';

const SECRET = 'whsec_guide_proof_4eC39HqLyjWDarjt';
const HEADING = '### Bun, Deno, Cloudflare Workers';

/** The guide's snippet word for word, then the `onEvent` the guide leaves to the merchant. */
const server = (snippet: string): string => `${snippet}
// The merchant's own code, which the guide leaves to you: here it says what it handled.
import type { WebhookEvent } from '@wallet/node/webhooks';
async function onEvent(event: WebhookEvent): Promise<void> {
  console.log(\`handled \${JSON.stringify(event)}\`);
}
console.log('started');
`;

/**
 * Per runtime: its block under the heading, the binary, and what it prints once listening (Deno
 * names its address; Bun prints nothing, so the line the merchant's module prints last).
 */
const RUNTIMES = [
  { name: 'Deno', nth: 0, bin: 'deno', ready: /Listening on http:\/\/127\.0\.0\.1:\d+/ },
  { name: 'Bun', nth: 1, bin: 'bun', ready: /^started$/m },
] as const;

/** The events `onEvent` handled, in order. */
const handled = (output: string): unknown[] =>
  [...output.matchAll(/^handled (.*)$/gm)].map((line) => JSON.parse(line[1]!) as unknown);

const event = (reference: string) => ({
  event: 'charge.success',
  data: { reference, amount: 500_000, customer: { handle: '@ada' } },
});

afterAll(() => removePacked());

describe.each(RUNTIMES)('the webhooks guide’s $name snippet, run as its comment says', (runtime) => {
  let project: Awaited<ReturnType<typeof freshProject>>;
  let running: Running;
  let url: string;

  beforeAll(async () => {
    const snippet = guideSnippet('docs/webhooks.md', HEADING, runtime.nth);
    // The command the snippet's own comment gives, flags and file name included.
    const command = new RegExp(`// ${runtime.bin}((?: [\\w-]+| --[\\w-]+(?:=\\S+)?)*?) (\\w+\\.ts)\\b`).exec(
      snippet,
    );
    if (!command)
      throw new Error(`the guide's ${runtime.name} snippet names no \`${runtime.bin} … x.ts\`:\n${snippet}`);
    const [, args, file] = command as unknown as [string, string, string];
    project = await freshProject({
      name: `webhooks-guide-${runtime.bin}`,
      files: { [file]: server(snippet) },
    });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/webhooks/wallet`;
    running = await startServer(proofBin(runtime.bin), [...args.split(' ').filter(Boolean), file], {
      cwd: project.dir,
      env: {
        HOME: project.dir,
        DENO_NO_UPDATE_CHECK: '1',
        DENO_NO_PROMPT: '1',
        PORT: String(port),
        HOST: '127.0.0.1',
        WALLET_WEBHOOK_SECRET: SECRET,
      },
      ready: runtime.ready,
    });
  });
  afterAll(() => {
    running?.child.kill('SIGTERM');
    project?.remove();
  });

  proof(
    'starts with the command its comment gives, listening on the PORT and HOST it was given',
    async () => {
      expect(running.child.exitCode).toBe(null);
      // Anything but a 405 from the handler would mean another server holds the port.
      expect(await fetch(url)).toMatchObject({ status: 405 });
    },
  );

  proof(
    'a forged delivery is answered 400 and never reaches onEvent; the genuine one 200, run once',
    async () => {
      const reference = `order_guide_${runtime.bin}`;
      const genuine = signWebhook(event(reference), SECRET);
      // Signed with another secret, the body changed after signing, and no signature at all.
      const forged = signWebhook(event(reference), 'whsec_forger');
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
      expect(handled(running.output())).toEqual([event(reference)]);
    },
  );
});
