import { afterEach, describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import { createWebhookHandler, verifyWebhook, verifyWebhookAsync } from '@wallet/node/webhooks';

import { resolveAndDispatch } from './http-helpers.js';
import { WEBHOOK_SECRET, authorizeAndSettle, deliveringTo, startReceiver } from './receiver.js';
import type { Receiver } from './receiver.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const fast = { attempts: 5, delayMs: 10, timeoutMs: 1000 };

describe('webhook delivery', () => {
  it('delivers a charge.success that the SDK verifies, answered before authorize resolves', async () => {
    receiver = await startReceiver();
    const sandbox = createSandbox(deliveringTo(receiver.url, fast));
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const { webhook } = await sandbox.authorize('order_1');

    expect(webhook?.delivered).toBe(true);
    expect(receiver.handled).toEqual([
      {
        event: 'charge.success',
        data: { reference: 'order_1', amount: 500_000, customer: { handle: '@ada' } },
      },
    ]);
    const [attempt] = sandbox.deliveries;
    expect(sandbox.deliveries).toHaveLength(1);
    expect(attempt).toMatchObject({
      attempt: 1,
      ok: true,
      status: 200,
      event: 'charge.success',
      reference: 'order_1',
    });
    expect(verifyWebhook(attempt!.body, attempt!.signature, WEBHOOK_SECRET)).toEqual(receiver.handled[0]);
  });

  it('signs bytes a re-serialized body cannot reproduce: indented, with a final newline', async () => {
    receiver = await startReceiver();
    const sandbox = createSandbox(deliveringTo(receiver.url, fast));
    await resolveAndDispatch(sandbox, 'order_bytes', 500_000);
    await sandbox.authorize('order_bytes');
    const { body, signature } = sandbox.deliveries[0]!;
    expect(body.endsWith('}\n')).toBe(true);
    expect(body).toContain('\n  "event": "charge.success"');
    const reserialized = JSON.stringify(JSON.parse(body));
    expect(reserialized).not.toBe(body);
    // The habit that fails: verifying JSON.stringify(req.body). It fails here, as in production.
    expect(() => verifyWebhook(reserialized, signature, WEBHOOK_SECRET)).toThrow(/does not match/);
    // The SDK's own ways, on the raw bytes, all accept the delivery.
    expect(receiver.handled).toHaveLength(1);
    await expect(verifyWebhookAsync(body, signature, WEBHOOK_SECRET)).resolves.toMatchObject({
      data: { reference: 'order_bytes' },
    });
    const handled: unknown[] = [];
    const fetchHandler = createWebhookHandler({
      secret: WEBHOOK_SECRET,
      onEvent: (event) => void handled.push(event),
    });
    const answer = await fetchHandler(
      new Request('http://127.0.0.1/webhooks/wallet', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-wallet-signature': signature },
        body,
      }),
    );
    expect(answer.status).toBe(200);
    expect(handled).toHaveLength(1);
  });

  it('retries an endpoint that fails twice in the background: three attempts recorded, one event handled', async () => {
    receiver = await startReceiver({ failFirst: 2 });
    const sandbox = createSandbox(deliveringTo(receiver.url, { ...fast, delayMs: 300 }));
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const { webhook } = await sandbox.authorize('order_1');
    // authorize() answered after the first attempt; the retries are still to come.
    expect(webhook).toMatchObject({ delivered: false, retrying: true });
    expect(sandbox.deliveries.map((d) => [d.attempt, d.status, d.nextRetryAt !== null])).toEqual([
      [1, 500, true],
    ]);
    expect(receiver.handled).toHaveLength(0);
    const outcome = await webhook!.settled;
    expect(outcome.delivered).toBe(true);

    expect(sandbox.deliveries.map((d) => [d.attempt, d.status, d.ok])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    expect(receiver.handled).toHaveLength(1);
    expect(new Set(sandbox.deliveries.map((d) => d.body)).size).toBe(1);
  });

  it('gives up on an endpoint that answers too slowly, and retries it', async () => {
    receiver = await startReceiver({ hangFirst: 1 });
    const sandbox = createSandbox(deliveringTo(receiver.url, { attempts: 3, delayMs: 10, timeoutMs: 200 }));
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    await authorizeAndSettle(sandbox, 'order_1');
    expect(sandbox.deliveries.map((d) => [d.status, d.error])).toEqual([
      [null, 'timed out after 200 ms'],
      [200, null],
    ]);
    expect(receiver.handled).toHaveLength(1);
  });

  it('stops after the last attempt when the endpoint never accepts, and the charge stays paid', async () => {
    receiver = await startReceiver({ secret: 'whsec_another_secret' });
    const sandbox = createSandbox(deliveringTo(receiver.url, { attempts: 3, delayMs: 5, timeoutMs: 1000 }));
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const { charge, webhook } = await sandbox.authorize('order_1');
    expect(webhook?.delivered).toBe(false);
    expect((await webhook?.settled)?.delivered).toBe(false);
    expect(sandbox.deliveries.map((d) => d.status)).toEqual([400, 400, 400]);
    expect(sandbox.deliveries.map((d) => d.nextRetryAt === null)).toEqual([false, false, true]);
    expect(receiver.handled).toEqual([]);
    expect(charge.status).toBe('SUCCESS');
  });

  it('records a refused connection as a failed attempt', async () => {
    receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    receiver = undefined;
    const sandbox = createSandbox(deliveringTo(url, { attempts: 2, delayMs: 5, timeoutMs: 1000 }));
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    await authorizeAndSettle(sandbox, 'order_1');
    expect(sandbox.deliveries).toEqual([
      expect.objectContaining({ attempt: 1, ok: false, status: null, error: 'ECONNREFUSED' }),
      expect.objectContaining({ attempt: 2, ok: false, status: null, error: 'ECONNREFUSED' }),
    ]);
  });

  it('refuses a webhookUrl without the secret to sign with', () => {
    expect(() => createSandbox({ webhookUrl: 'http://127.0.0.1:1/hook' })).toThrow(/webhookSecret/);
  });

  it('caps the doubling delay between attempts at maxDelayMs', async () => {
    receiver = await startReceiver({ failFirst: 100 });
    const sandbox = createSandbox(
      deliveringTo(receiver.url, { attempts: 6, delayMs: 20, maxDelayMs: 60, timeoutMs: 1000 }),
    );
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    await authorizeAndSettle(sandbox, 'order_1');
    const deliveries = sandbox.deliveries;
    const gaps = deliveries
      .slice(0, -1)
      .map((d) => Date.parse(d.nextRetryAt!) - Date.parse(d.at) - d.durationMs);
    // 20, 40, then 60 (not 80, 160): the schedule never waits more than the cap.
    expect(gaps.map((gap) => Math.round(gap / 10) * 10)).toEqual([20, 40, 60, 60, 60]);
    // And each retry waited out its delay before going (a loaded machine only makes it later).
    deliveries.slice(1).forEach((d, i) => {
      expect(Date.parse(d.at)).toBeGreaterThanOrEqual(Date.parse(deliveries[i]!.nextRetryAt!) - 1);
    });
  });

  it('reset() stops the retries of deliveries made before it: the next test never gets them', async () => {
    receiver = await startReceiver({ failFirst: 1 });
    const sandbox = createSandbox(deliveringTo(receiver.url, { ...fast, delayMs: 100 }));
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const { webhook } = await sandbox.authorize('order_1');
    expect(webhook).toMatchObject({ delivered: false, retrying: true });
    // afterEach: reset. The next test uses the same reference, and its customer has not paid.
    sandbox.reset();
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    expect(await webhook!.settled).toMatchObject({ delivered: false });

    expect(receiver.handled).toEqual([]);
    expect(receiver.hits).toBe(1);
    expect(sandbox.deliveries).toEqual([]);
    expect(sandbox.charge('order_1')?.status).toBe('PENDING_AUTHORIZATION');
  });

  it('close() stops the retries under way', async () => {
    receiver = await startReceiver({ failFirst: 100 });
    // Ten minutes to the next attempt: only close() can settle the delivery within the test.
    const sandbox = createSandbox(
      deliveringTo(receiver.url, { attempts: 20, delayMs: 600_000, maxDelayMs: 600_000, timeoutMs: 1000 }),
    );
    await resolveAndDispatch(sandbox, 'order_1', 500_000);
    const { webhook } = await sandbox.authorize('order_1');
    expect(webhook).toMatchObject({ delivered: false, retrying: true });
    await sandbox.close();
    expect(await webhook!.settled).toMatchObject({ delivered: false });
    expect(receiver.hits).toBe(1);
  });
});
