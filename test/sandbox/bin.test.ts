import { afterEach, describe, expect, it } from 'vitest';

import { callHttp } from './http-helpers.js';
import { WEBHOOK_SECRET, startReceiver } from './receiver.js';
import type { Receiver } from './receiver.js';
import { startTs } from './child.js';
import type { Child } from './child.js';

const BIN = 'src/testing/bin.ts';
const LISTENING = /^wallet-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/;

let child: Child | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  child?.kill();
  await child?.exited;
  await receiver?.close();
  child = undefined;
  receiver = undefined;
});

describe('the wallet-sandbox bin', () => {
  it('prints its URL, serves a whole charge with webhook, and exits 0 on SIGTERM', async () => {
    receiver = await startReceiver();
    child = startTs(BIN, ['--port', '0', '--webhook-url', receiver.url, '--webhook-secret', WEBHOOK_SECRET]);
    const [, url] = await child.waitForLine(LISTENING);

    const resolved = await callHttp(url!, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '+2348000000001', amount: 250_000, reference: 'cli_1' },
    });
    expect(resolved.status).toBe(200);
    await callHttp(url!, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'cli_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
    });
    const authorized = await callHttp(url!, 'POST', '/_sandbox/charges/cli_1/authorize', { apiKey: null });
    expect(authorized.body.data.webhook.delivered).toBe(true);
    expect(receiver.handled).toEqual([
      {
        event: 'charge.success',
        data: { reference: 'cli_1', amount: 250_000, customer: { handle: '@ada' } },
      },
    ]);
    expect((await callHttp(url!, 'GET', '/v1/charges/verify/cli_1')).body.data.status).toBe('SUCCESS');
    expect((await callHttp(url!, 'GET', '/v1/charges/verify/cli_1', { apiKey: 'sk_live_x' })).status).toBe(
      401,
    );

    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${url}/v1/charges/verify/cli_1`)).rejects.toThrow();
  });

  it('exits 0 on SIGINT, as after Ctrl-C', async () => {
    child = startTs(BIN, ['--port', '0']);
    await child.waitForLine(LISTENING);
    child.process.kill('SIGINT');
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });

  it.each([[['--port', 'eighty']], [['--webhook-url', 'http://127.0.0.1:9/hook']], [['--colour']]])(
    'refuses %j with exit code 2 and its usage',
    async (args) => {
      child = startTs(BIN, args);
      expect((await child.exited).code).toBe(2);
      expect(child.stderr()).toMatch(/Usage: wallet-sandbox/);
    },
  );
});
