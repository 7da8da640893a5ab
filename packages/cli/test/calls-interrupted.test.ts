/**
 * `wallet refunds create` cut off by Ctrl-C while its request is in flight, or left with no answer
 * by every attempt: the outcome is unknown, so the command names the idempotency key it sent (in
 * its flag's words, and in --json), and a re-run with it is a replay, not a second refund.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv, TEST_KEY, wallet } from './helpers/processes.js';

describe('wallet refunds create, interrupted', () => {
  // SIGINT: Ctrl-C, or a CI job cancelled; SIGTERM: a container or service manager stopping it.
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'names the idempotency key it sent when %s cuts off the request (exit 1)',
    async (signal) => {
      const keys: string[] = [];
      // A service that takes the refund and answers late: the request is in flight when Ctrl-C comes.
      const server = createServer((req, res) => {
        keys.push(String(req.headers['x-idempotency-key']));
        req.resume();
        setTimeout(() => res.destroy(), 10_000).unref();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const ran = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [CLI_BIN, 'refunds', 'create', 'ord_1', '--amount', '100'], {
            env: cleanEnv({ WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url }),
          });
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
          server.once('request', () => setTimeout(() => child.kill(signal), 200));
          child.on('close', (code) => resolve({ code, stderr }));
        });
        expect(keys).toHaveLength(1);
        expect(ran.code).toBe(1);
        expect(ran.stderr).toContain('outcome is unknown');
        expect(ran.stderr).toContain(`--idempotency-key ${keys[0]}`);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    },
  );

  it('names the key in its own flag, and in --json, when every attempt lost its connection (outcome unknown)', async () => {
    const keys: string[] = [];
    // The service reads the refund, then the connection drops before any answer: it may have refunded.
    const server = createServer((req, res) => {
      keys.push(String(req.headers['x-idempotency-key']));
      req.resume().on('end', () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url };
      const ran = await wallet(['--json', 'refunds', 'create', 'ord_1', '--amount', '100'], { env });
      expect(new Set(keys).size).toBe(1); // every retry carried the same key
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain(`--idempotency-key ${keys[0]}`);
      // A script reads the JSON: the key to retry with, and that the outcome is unknown, as fields.
      expect(JSON.parse(ran.stdout)).toMatchObject({ outcome: 'unknown', idempotencyKey: keys[0] });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a secret key pasted as --idempotency-key (exit 2): never sent, never printed back as the key to retry with', async () => {
    const keys: string[] = [];
    const server = createServer((req, res) => {
      keys.push(String(req.headers['x-idempotency-key']));
      req.resume().on('end', () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url };
      for (const pasted of [TEST_KEY, 'sk_live_51Hx9PastedInTheWrongFlag']) {
        const args = ['--json', 'refunds', 'create', 'ord_1', '--amount', '100', '--idempotency-key', pasted];
        const ran = await wallet(args, { env });
        expect(ran.code, pasted).toBe(2);
        expect(ran.stdout + ran.stderr, pasted).not.toContain(pasted.slice(8));
      }
      expect(keys).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("never tells to run again with the key when the answer was another request's (replay_mismatch): the SDK says check first", async () => {
    // The first attempt's connection drops; the retry is answered with a refund of another amount.
    let n = 0;
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        if (++n === 1) return res.socket?.destroy();
        res.writeHead(200, { 'content-type': 'application/json' });
        const data = { refundReference: 'rf_other', amount: 5000, currency: 'NGN', status: 'PROCESSED' };
        res.end(
          JSON.stringify({
            status: 'success',
            message: 'ok',
            data: { ...data, refundedAt: new Date().toISOString() },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url };
      const args = ['refunds', 'create', 'ord_1', '--amount', '100', '--idempotency-key', 'k-1041'];
      const ran = await wallet(args, { env });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain('Check with the service before sending this operation again');
      // Run again with it, the service answers with that other request's result, never this refund's.
      expect(ran.stderr).not.toContain('Run the same command again');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
