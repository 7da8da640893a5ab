/**
 * When undici's file cannot load (a bundle or a trimmed deploy that left `dist/undici-agent.js`
 * out), calls go through the runtime's fetch, as the contract has it where undici cannot load, and
 * say so once in the log; with a proxy set, which fetch cannot honour, a call ends in the SDK's own
 * typed error that says nothing was sent, never a bare module error.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { refunded } from './helpers/mock-service.js';
import type * as Platforms from '../src/platform/index.js';

// What the next createAgent() rejects with: by default, the Agent's file missing.
const loading = vi.hoisted(() => ({ error: undefined as Error | undefined }));
vi.mock('../src/platform/index.js', async (original) => {
  const { platform } = await original<typeof Platforms>();
  const missing = Object.assign(new Error("Cannot find module '/app/dist/undici-agent.js'"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
  return { platform: { ...platform, createAgent: () => Promise.reject(loading.error ?? missing) } };
});

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  loading.error = undefined;
  await server?.close();
  server = undefined;
});

const answer = { status: 'success', data: { ...refunded, reference: 'order_1042' } };

describe("a call while undici's file cannot load", () => {
  it("sends through the runtime's fetch, saying so in the log", async () => {
    server = await loopback((_req, res) => json(res, 200, answer));
    const warned: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warned.push(m), error() {} };
    const refund = await server.wallet({ logger }).refunds.create({ reference: 'order_1042' });
    expect(refund.refundReference).toBe(refunded.refundReference);
    expect(server.received).toHaveLength(1);
    expect(warned.join('\n')).toContain(
      "undici could not load (ERR_MODULE_NOT_FOUND): sending through the runtime's fetch",
    );
  });

  it('with a proxy set, refuses each call with its key and outcome known, sending nothing', async () => {
    server = await loopback((_req, res) => json(res, 200, answer));
    const wallet = server.wallet({ proxy: 'http://127.0.0.1:9' });
    for (let call = 0; call < 2; call++) {
      const error = await wallet.refunds
        .create({ reference: 'order_1042' }, { idempotencyKey: 'refund-attempt-8' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ idempotencyKey: 'refund-attempt-8', outcomeUnknown: false });
      expect((error as Error).message).toContain('ERR_MODULE_NOT_FOUND');
      expect((error as Error).message).toContain('Nothing was sent');
    }
    expect(server.received).toHaveLength(0);
  });

  it('with undici present but failing to start (a broken build), refuses each call rather than quietly use fetch', async () => {
    // fetch would allow TLS 1.2 and no connection limit: a weaker way of sending, never chosen in silence.
    loading.error = new TypeError('createAgent is not a function');
    server = await loopback((_req, res) => json(res, 200, answer));
    const error = await server
      .wallet()
      .refunds.create({ reference: 'order_1042' }, { idempotencyKey: 'refund-attempt-9' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ idempotencyKey: 'refund-attempt-9', outcomeUnknown: false });
    expect((error as Error).message).toContain('Nothing was sent');
    expect(server.received).toHaveLength(0);
  });
});
