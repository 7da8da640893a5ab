/**
 * `wallet webhooks trigger --data FILE --override path=value`: an event with the merchant's own
 * fields, signed as the service signs, accepted by a handler built with `createNodeWebhookHandler`
 * (which verifies the signature over the raw bytes), and refused by one holding another secret.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import { createNodeWebhookHandler, signWebhook, type WebhookEvent } from '@wallet/node/webhooks';

import { wallet } from './helpers/processes.js';

const SECRET = 'whsec_cli_shaped_secret';
const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-shaped-'));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A merchant's endpoint: the SDK's Node handler, keeping every event it accepted. */
async function endpoint(secret: string): Promise<{ url: string; events: WebhookEvent[] }> {
  const events: WebhookEvent[] = [];
  const handler = createNodeWebhookHandler({
    secret,
    onEvent: (event) => {
      events.push(event);
    },
    onInvalidEvent: (payload) => {
      events.push(payload as WebhookEvent);
    },
  });
  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, events };
}

const data = join(dir, 'order.json');
writeFileSync(
  data,
  JSON.stringify({
    reference: 'order_1041',
    amount: 500_000,
    customer: { handle: '@ada' },
    metadata: { orderId: 1041, channel: 'web' },
  }),
);

describe('wallet webhooks trigger with the merchant’s own data', () => {
  it('sends the file’s data with each --override applied, and the SDK’s handler verifies it', async () => {
    const { url, events } = await endpoint(SECRET);
    const ran = await wallet([
      'webhooks',
      'trigger',
      'charge.success',
      '--to',
      url,
      '--secret',
      SECRET,
      '--data',
      data,
      '--override',
      'amount=250000',
      '--override',
      'customer.handle=@bola',
      '--override',
      'metadata.orderId="1041-b"',
      '--override',
      'metadata.coupon.code=NAIJA10',
    ]);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(events).toEqual([
      {
        event: 'charge.success',
        data: {
          reference: 'order_1041',
          amount: 250_000,
          customer: { handle: '@bola' },
          metadata: { orderId: '1041-b', channel: 'web', coupon: { code: 'NAIJA10' } },
        },
      },
    ]);
  });

  it('is refused by a handler holding another secret (exit 1, nothing accepted)', async () => {
    const { url, events } = await endpoint('whsec_another_secret');
    const ran = await wallet([
      'webhooks',
      'trigger',
      'charge.success',
      '--to',
      url,
      '--secret',
      SECRET,
      '--data',
      data,
    ]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('400');
    expect(events).toEqual([]);
  });

  it.each([
    [['--data', data, '--reference', 'x'], 'set --reference with --override instead'],
    [['--override', 'amount'], 'is not path=value'],
    [['--override', '__proto__.polluted=1'], "'__proto__' cannot be a field name"],
    [['--override', 'amount.kobo=1'], "'amount' is not an object"],
    [['--data', join(dir, 'absent.json')], '--data'],
  ])('refuses %j before sending anything (exit 2)', async (args, said) => {
    const { url, events } = await endpoint(SECRET);
    const ran = await wallet([
      'webhooks',
      'trigger',
      'charge.success',
      '--to',
      url,
      '--secret',
      SECRET,
      ...args,
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(said);
    expect(events).toEqual([]);
  });
});

describe('wallet webhooks verify on a genuine delivery of another shape', () => {
  it('says the signature matched and names what the SDK refuses, never blaming the secret', async () => {
    // Signed with the right secret, byte for byte; only its charge.success has no amount.
    const body = `${JSON.stringify({ event: 'charge.success', data: { reference: 'order_1042' } }, null, 2)}\n`;
    const file = join(dir, 'no-amount.json');
    writeFileSync(file, body);
    const { signature } = signWebhook(body, SECRET);
    const args = ['webhooks', 'verify', file, '--secret', SECRET, '--signature', signature];
    const ran = await wallet(['--json', ...args]);
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as { verifies: boolean; secretIndex: number | null; cause: string };
    expect(result).toMatchObject({ verifies: false, secretIndex: 0 });
    expect(result.cause).toContain('The webhook signature matched');
    expect(result.cause).not.toContain('secret is most likely wrong');
    const human = await wallet(args);
    expect(human.stdout).toContain('The delivery is genuine; its payload is not the documented shape.');
  });

  it('says a genuine delivery with a payload off the documented shape is genuine, not signed with another secret', async () => {
    // The merchant's own --override reference=1041 made the reference a number: signed right, shaped wrong.
    const event = {
      event: 'charge.success',
      data: { reference: 1041, amount: 450_000, customer: { handle: '@ada' } },
    };
    const shaped = `${JSON.stringify(event, null, 2)}\n`;
    const file = join(dir, 'number-reference.json');
    writeFileSync(file, shaped);
    const { signature } = signWebhook(shaped, SECRET);
    const ran = await wallet([
      'webhooks',
      'verify',
      file,
      '--signature',
      signature,
      '--json',
      '--secret',
      SECRET,
    ]);
    expect(ran.code).toBe(1);
    const result = JSON.parse(ran.stdout) as { verifies: boolean; alteration: string | null; cause: string };
    expect(result).toMatchObject({ verifies: false, alteration: null, secretIndex: 0 });
    expect(result.cause).not.toContain('the secret is most likely wrong');
    expect(result.cause).toMatch(/signature matched.*data\.reference is a number/);
  });
});
