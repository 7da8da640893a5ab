/**
 * Test helpers for the webhook suites. Signatures here come from node:crypto directly, never from
 * the code under test, so a bug in signing cannot hide a bug in verifying.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { RequestListener, Server } from 'node:http';

import { expect } from 'vitest';

import { WalletError, WebhookVerificationError } from '../../src/webhooks.js';
import type {
  WebhookErrorContext,
  WebhookEvent,
  WebhookHandlerOptions,
  WebhookVerificationReason,
} from '../../src/webhooks.js';

export const SECRET = 'whsec_test_3f9a1c0b7d2e4f6a';
export const OTHER_SECRET = 'whsec_test_other_8b1d';

/** Hex HMAC-SHA512, computed independently of the SDK. */
export function hmacHex(body: string | Uint8Array, secret: string): string {
  return createHmac('sha512', secret).update(body).digest('hex');
}

/** A charge.success delivery as the service documents it. */
export const CHARGE_SUCCESS = {
  event: 'charge.success',
  data: { reference: 'order_1042', amount: 500_000, customer: { handle: '@ada' } },
} as const;

/** The exact bytes the service would send for {@link CHARGE_SUCCESS}, and their signature. */
export const BODY = JSON.stringify(CHARGE_SUCCESS);
export const SIGNATURE = hmacHex(BODY, SECRET);

/** What a verifier call came to: the event, or the refusal's reason. */
export type Outcome = { ok: true; event: unknown } | { ok: false; reason: WebhookVerificationReason };

/** Runs a verifier and records its outcome; anything but a WebhookVerificationError fails the test. */
export async function outcome(run: () => unknown): Promise<Outcome> {
  try {
    return { ok: true, event: await run() };
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    const e = error as WebhookVerificationError;
    expect(e.code).toBe(`webhook_${e.reason}`);
    return { ok: false, reason: e.reason };
  }
}

/** Starts a listener on loopback, port 0. */
export async function listen(listener: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Closes a server, including idle keep-alive connections, so suites end promptly. */
export async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** POSTs a delivery with the signature header (when given). */
export async function deliver(
  url: string,
  body: string | Uint8Array,
  signature: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'x-wallet-signature': signature }),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

/**
 * Builds a handler with `create` whose `onEvent` and `onError` record what they were given, so a
 * test can assert on the events handled and the errors reported.
 */
export function recording<H>(
  create: (options: WebhookHandlerOptions) => H,
  options: Partial<WebhookHandlerOptions> = {},
) {
  const events: WebhookEvent[] = [];
  const errors: [unknown, WebhookErrorContext][] = [];
  const handler = create({
    secret: SECRET,
    onEvent: (event) => {
      events.push(event);
    },
    onError: (error, context) => {
      errors.push([error, context]);
    },
    ...options,
  });
  return { handler, events, errors };
}

/**
 * Runs an example file as written (`node --import tsx FILE`, from the repository's root) with
 * WALLET_WEBHOOK_SECRET, HOST and PORT=0 in its environment, and resolves once it prints the URL
 * of its webhook route.
 */
export async function runExample(
  file: string,
  secret: string,
): Promise<{ url: string; output: () => string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, WALLET_WEBHOOK_SECRET: secret, HOST: '127.0.0.1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = (): void => void child.kill();
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const found = /http:\/\/127\.0\.0\.1:\d+\/webhooks\/wallet/.exec(output);
        if (found) resolve(found[0]);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.once('exit', (code) => reject(new Error(`exited ${String(code)}: ${output}`)));
    });
    return { url, output: () => output, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** The error `run` throws, which must be a WalletError. */
export function thrown(run: () => unknown): WalletError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WalletError);
    return error as WalletError;
  }
  throw new Error('did not throw');
}
