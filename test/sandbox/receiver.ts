/**
 * A merchant's webhook endpoint for the tests: `createNodeWebhookHandler` on a loopback server,
 * with ways to make it fail (the merchant's callback throws) or hang (no answer in time).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox, SandboxOptions, WebhookRetryOptions } from '@wallet/node/testing';
import { createNodeWebhookHandler } from '@wallet/node/webhooks';
import type { WebhookEvent } from '@wallet/node/webhooks';

export const WEBHOOK_SECRET = 'whsec_sandbox_tests';

export interface Receiver {
  url: string;
  /** Events whose callback succeeded, in order. */
  handled: WebhookEvent[];
  /** Every request that reached the endpoint. */
  hits: number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  secret?: string;
  /** The callback throws on this many deliveries first (the endpoint answers 500). */
  failFirst?: number;
  /** The endpoint never answers this many deliveries first. */
  hangFirst?: number;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  let failuresLeft = options.failFirst ?? 0;
  let hangsLeft = options.hangFirst ?? 0;
  const receiver: Receiver = { url: '', handled: [], hits: 0, close: () => Promise.resolve() };
  const handler = createNodeWebhookHandler({
    secret: options.secret ?? WEBHOOK_SECRET,
    onEvent(event) {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('the merchant database is down');
      }
      receiver.handled.push(event);
    },
    onError: () => {},
  });
  const server = createServer((req, res) => {
    receiver.hits += 1;
    if (hangsLeft > 0) {
      hangsLeft -= 1;
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/wallet`;
  receiver.close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  return receiver;
}

/** Sandbox options that deliver to `url`, signed with the tests' secret. */
export function deliveringTo(url: string, webhookRetry?: WebhookRetryOptions): SandboxOptions {
  return { webhookUrl: url, webhookSecret: WEBHOOK_SECRET, ...(webhookRetry ? { webhookRetry } : {}) };
}

/** Authorizes a charge and waits until its delivery's last attempt is over. */
export async function authorizeAndSettle(sandbox: Sandbox, reference: string): Promise<void> {
  const { webhook } = await sandbox.authorize(reference);
  await webhook?.settled;
}
