import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { serve } from '@hono/node-server';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  memoryDedupeStore,
  signWebhook,
  type WebhookEvent,
} from '@wallet/node/webhooks';

import { startSandbox, wallet } from './helpers/processes.js';
import { pay } from './helpers/seed.js';

const SECRET = 'whsec_cli_test_secret';
const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-webhooks-'));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function listening(server: Server): Promise<string> {
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

/** A server that keeps each delivery's exact bytes and signature, and acknowledges it. */
async function capture() {
  const got: { body: Buffer; signature: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks), signature: String(req.headers['x-wallet-signature']) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  return { url: await listening(server), got };
}

describe('wallet webhooks trigger', () => {
  it('signs exactly as the sandbox does: same bytes, same signature', async () => {
    const hook = await capture();
    const sandbox = await startSandbox(['--webhook-url', hook.url, '--webhook-secret', SECRET]);
    closers.push(() => sandbox.stop());
    await pay(sandbox.url, 'ord_hook', 450_000);
    const fromSandbox = hook.got[0]!;
    const ran = await wallet([
      'webhooks',
      'trigger',
      'charge.success',
      '--to',
      hook.url,
      '--secret',
      SECRET,
      '--reference',
      'ord_hook',
      '--amount',
      '450000',
    ]);
    expect(ran.code).toBe(0);
    const fromCli = hook.got[1]!;
    expect(fromCli.body.equals(fromSandbox.body)).toBe(true);
    expect(fromCli.signature).toBe(fromSandbox.signature);
  });

  it("is accepted by the SDK's Express handler, and --repeat 3 with dedupe runs onEvent once", async () => {
    const events: WebhookEvent[] = [];
    const app = express();
    app.post(
      '/webhooks/wallet',
      express.raw({ type: 'application/json' }),
      createNodeWebhookHandler({
        secret: SECRET,
        dedupe: memoryDedupeStore(),
        onEvent: (e) => void events.push(e),
      }),
    );
    const url = await listening(createServer(app));
    const ran = await wallet(
      [
        'webhooks',
        'trigger',
        'charge.success',
        '--to',
        `${url}/webhooks/wallet`,
        '--reference',
        'ord_x1',
        '--repeat',
        '3',
        '--json',
      ],
      { env: { WALLET_WEBHOOK_SECRET: SECRET } },
    );
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as { deliveries: { status: number; received: boolean }[] };
    expect(result.deliveries).toEqual(
      [1, 2, 3].map((attempt) => expect.objectContaining({ attempt, status: 200, received: true })),
    );
    expect(events).toEqual([
      {
        event: 'charge.success',
        data: { reference: 'ord_x1', amount: 500_000, customer: { handle: '@ada' } },
      },
    ]);
  });

  it("is accepted by the SDK's Fetch handler with dedupe, and a wrong secret exits 1", async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: memoryDedupeStore(),
      onEvent: (e) => void seen.push(e.event),
    });
    const server = serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ok = await wallet([
      'webhooks',
      'trigger',
      'charge.success',
      '--to',
      url,
      '--secret',
      SECRET,
      '--repeat',
      '3',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.match(/200 received/g)).toHaveLength(3);
    expect(seen).toEqual(['charge.success']);
    const wrong = await wallet([
      'webhooks',
      'trigger',
      'charge.success',
      '--to',
      url,
      '--secret',
      'not-the-secret',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('400 not acknowledged');
  });

  it('counts a long acknowledgement ({"received":true, …} past 500 bytes) as received', async () => {
    const ack = JSON.stringify({ received: true, echo: 'x'.repeat(600) });
    const url = await listening(createServer((_req, res) => res.writeHead(200).end(ack)));
    const ran = await wallet(['webhooks', 'trigger', 'charge.success', '--to', url, '--secret', SECRET]);
    expect(ran.code, ran.stdout).toBe(0);
  });

  it('exits 2 for an unknown event or a missing secret', async () => {
    expect(
      (await wallet(['webhooks', 'trigger', 'charge.failed', '--to', 'http://127.0.0.1:9', '--secret', 's']))
        .code,
    ).toBe(2);
    for (const to of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://127.0.0.1/']) {
      const ran = await wallet(['webhooks', 'trigger', 'charge.success', '--to', to, '--secret', 's']);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('--to must be an http: or https: URL');
    }
    const noSecret = await wallet(['webhooks', 'trigger', 'charge.success', '--to', 'http://127.0.0.1:9']);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('WALLET_WEBHOOK_SECRET');
  });
});

describe('wallet webhooks verify', () => {
  const event = {
    event: 'charge.success',
    data: { reference: 'ord_Ìyá', amount: 450_000, customer: { handle: '@ada' } },
  };
  const compact = JSON.stringify(event);
  const indented = `${JSON.stringify(event, null, 2)}\n`;

  async function diagnose(
    sent: string,
    captured: Buffer | string,
    secrets: string[] = [SECRET],
    signedWith = SECRET,
  ) {
    const { signature } = signWebhook(sent, signedWith);
    const file = join(dir, `body-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, captured);
    const ran = await wallet([
      'webhooks',
      'verify',
      file,
      '--signature',
      signature,
      '--json',
      ...secrets.flatMap((s) => ['--secret', s]),
    ]);
    return {
      ...ran,
      result: JSON.parse(ran.stdout) as {
        verifies: boolean;
        alteration: string | null;
        secretIndex: number | null;
        cause: string;
      },
    };
  }

  it('says a captured sandbox delivery verifies, byte for byte', async () => {
    const hook = await capture();
    const sandbox = await startSandbox(['--webhook-url', hook.url, '--webhook-secret', SECRET]);
    closers.push(() => sandbox.stop());
    await pay(sandbox.url, 'ord_v1', 1000);
    const { body, signature } = hook.got[0]!;
    const ran = await wallet(['webhooks', 'verify', '--secret', SECRET, '--signature', signature], {
      input: body.toString('utf8'),
    });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('verifies');
  });

  it.each([
    ['an indented body re-serialized compact', indented, compact, 'reserialized_compact'],
    [
      'a compact body re-serialized indented',
      compact,
      JSON.stringify(event, null, 2),
      'reserialized_indented',
    ],
    ['a trimmed final newline', indented, indented.trimEnd(), 'final_newline_trimmed'],
    [
      'an indented body re-indented (4 spaces)',
      indented,
      `${JSON.stringify(event, null, 4)}\n`,
      'reindented',
    ],
    ['an added final newline', compact, `${compact}\n`, 'final_newline_added'],
    ['CRLF line endings', indented, indented.replace(/\n/g, '\r\n'), 'crlf'],
    [
      'UTF-8 read as Latin-1',
      compact,
      Buffer.from(Buffer.from(compact).toString('latin1'), 'utf8'),
      're_encoded',
    ],
  ])('names %s as the cause', async (_name, sent, captured, alteration) => {
    const ran = await diagnose(sent, captured);
    expect(ran.code).toBe(1);
    expect(ran.result).toMatchObject({ verifies: false, alteration });
  });

  it('exits 2 for an empty --secret (an unset variable), as trigger does, instead of a verdict', async () => {
    const { signature } = signWebhook(compact, SECRET);
    const ran = await wallet(['webhooks', 'verify', '--secret', '', '--signature', signature], {
      input: compact,
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--secret');
  });

  it('names the other secret when the delivery was signed with the second --secret', async () => {
    const ran = await diagnose(compact, compact, [SECRET, 'whsec_old'], 'whsec_old');
    expect(ran.code).toBe(1);
    expect(ran.result).toMatchObject({ verifies: false, secretIndex: 1, alteration: null });
    expect(ran.result.cause).toContain('2nd --secret');
  });

  // WALLET_WEBHOOK_SECRET as Docker's --env-file or a secrets file leaves it: the SDK's own mismatch names it, the verdict must too.
  it.each([
    ['a line break at its end', `${SECRET}\n`],
    ['quotes around it', `"${SECRET}"`],
  ])('names a --secret with %s, never blaming a wrong secret', async (_, secret) => {
    const ran = await diagnose(compact, compact, [secret]);
    expect(ran.code).toBe(1);
    expect(ran.result).toMatchObject({ verifies: false, alteration: null });
    expect(ran.result.cause).toMatch(/whitespace or quotes at its ends/);
    expect(ran.result.cause).toMatch(/verifies with it once they are removed/);
    expect(ran.result.cause).not.toContain('most likely wrong');
    expect(ran.stdout).not.toContain(SECRET);
  });

  it('says when no common alteration explains it, and verifies an untouched body', async () => {
    const tampered = await diagnose(compact, compact.replace('450000', '45000'));
    expect(tampered.result).toMatchObject({ verifies: false, alteration: null });
    expect(tampered.result.cause).toContain('the secret is most likely wrong');
    const otherSecret = await diagnose(compact, compact, [SECRET], 'whsec_someone_else');
    expect(otherSecret.result.cause).toContain('The signature is well formed');
    const malformed = await wallet(
      ['webhooks', 'verify', '--secret', SECRET, '--signature', 'sha512=xyz', '--json'],
      {
        input: compact,
      },
    );
    expect(JSON.parse(malformed.stdout)).toMatchObject({ verifies: false, alteration: null });
    expect((JSON.parse(malformed.stdout) as { cause: string }).cause).toMatch(
      /^The signature is malformed: the service sends 128 hex digits \(HMAC-SHA512\), this is 3 character\(s\) with some that are not hex/,
    );
    const untouched = await diagnose(indented, indented);
    expect(untouched.code).toBe(0);
    expect(untouched.result.verifies).toBe(true);
  });
});
