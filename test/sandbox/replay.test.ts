/**
 * Deliveries replayed: a past delivery sent again, byte for byte, to the current webhook URL, as a
 * merchant's handler built with `createNodeWebhookHandler` and a dedupe store sees it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import type { Sandbox } from '@wallet/node/testing';
import { createNodeWebhookHandler, memoryDedupeStore } from '@wallet/node/webhooks';
import type { WebhookEvent } from '@wallet/node/webhooks';

import { callSandbox, resolveAndDispatch } from './http-helpers.js';

const SECRET = 'whsec_replay_tests';

interface Endpoint {
  url: string;
  /** Events the merchant's callback ran for. */
  handled: WebhookEvent[];
  /** Every delivery that reached the endpoint: its body and signature, and the answer. */
  seen: { body: string; signature: string; status: number }[];
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

async function merchantEndpoint(): Promise<Endpoint> {
  const endpoint: Endpoint = { url: '', handled: [], seen: [] };
  const handler = createNodeWebhookHandler({
    secret: SECRET,
    dedupe: memoryDedupeStore(),
    onEvent: (event) => void endpoint.handled.push(event),
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const signature = String(req.headers['x-wallet-signature']);
    res.on('finish', () =>
      endpoint.seen.push({ body: Buffer.concat(chunks).toString('utf8'), signature, status: res.statusCode }),
    );
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/wallet`;
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return endpoint;
}

function sandboxFor(endpoint: Endpoint | undefined): Sandbox {
  const sandbox = createSandbox(
    endpoint === undefined ? {} : { webhookUrl: endpoint.url, webhookSecret: SECRET },
  );
  cleanup.push(() => sandbox.close());
  return sandbox;
}

describe('replaying a delivery', () => {
  it('sends the same bytes again, and the handler answers the duplicate without running onEvent twice', async () => {
    const endpoint = await merchantEndpoint();
    const sandbox = sandboxFor(endpoint);
    await resolveAndDispatch(sandbox, 'order_replay', 500_000);
    await sandbox.authorize('order_replay');
    const [first] = sandbox.deliveries;
    expect(first).toMatchObject({ id: 'dlv_1', ok: true, reference: 'order_replay' });

    const replayed = await sandbox.replay(first!.id);

    expect(replayed.delivered).toBe(true);
    expect(replayed.attempts[0]).toMatchObject({ id: 'dlv_2', event: 'charge.success', ok: true });
    expect(endpoint.seen).toHaveLength(2);
    expect(endpoint.seen[1]).toEqual({ body: first!.body, signature: first!.signature, status: 200 });
    expect(endpoint.seen[1]!.body).toBe(endpoint.seen[0]!.body);
    // The dedupe store saw the event before: answered 200, the merchant's callback ran once.
    expect(endpoint.handled).toHaveLength(1);
  });

  it('lists deliveries and replays one over HTTP, to the webhook URL of now', async () => {
    const before = await merchantEndpoint();
    const sandbox = sandboxFor(before);
    await resolveAndDispatch(sandbox, 'order_moved', 250_000);
    await sandbox.authorize('order_moved');
    const after = await merchantEndpoint();
    sandbox.setWebhook({ url: after.url, secret: SECRET });

    const listed = await callSandbox(sandbox, 'GET', '/_sandbox/deliveries');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((d: { id: string; url: string }) => [d.id, d.url])).toEqual([
      ['dlv_1', before.url],
    ]);
    const answer = await callSandbox(sandbox, 'POST', '/_sandbox/deliveries/dlv_1/replay');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ delivered: true, retrying: false });
    expect(after.seen.map((s) => s.body)).toEqual([before.seen[0]!.body]);
    expect(after.handled).toHaveLength(1);
    expect(sandbox.deliveries.map((d) => [d.id, d.url])).toEqual([
      ['dlv_1', before.url],
      ['dlv_2', after.url],
    ]);
  });

  it('refuses an unknown delivery with 404, and a sandbox without webhooks with 409', async () => {
    const endpoint = await merchantEndpoint();
    const sandbox = sandboxFor(endpoint);
    const unknown = await callSandbox(sandbox, 'POST', '/_sandbox/deliveries/dlv_9/replay');
    expect(unknown.status).toBe(404);
    await expect(sandbox.replay('dlv_9')).rejects.toMatchObject({ name: 'SandboxError', status: 404 });

    await resolveAndDispatch(sandbox, 'order_off', 100_000);
    await sandbox.authorize('order_off');
    sandbox.setWebhook(undefined);
    await expect(sandbox.replay('dlv_1')).rejects.toMatchObject({ status: 409 });
    await expect(sandbox.replay('')).rejects.toMatchObject({ name: 'ValidationError' });
  });
});
