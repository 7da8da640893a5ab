/**
 * Charges in the states a reconciliation meets, put into a running sandbox in one request with
 * `POST /_sandbox/seed` (a control route: no API key, never faulted), not made call by call.
 */
import type { SandboxSeedCharge } from '@wallet/node/testing';
import { afterAll, beforeAll } from 'vitest';

import { startSandbox, TEST_KEY, type SandboxProcess } from './processes.js';

async function control(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
}

/** Seeds the charges, all at once (the sandbox keeps all of them or none). */
export async function seed(baseUrl: string, charges: readonly SandboxSeedCharge[]): Promise<void> {
  await control(`${baseUrl}/_sandbox/seed`, charges);
}

/**
 * A charge the customer pays now, so the sandbox delivers its `charge.success` (a seeded `SUCCESS`
 * sends no webhook): seeded pending, then authorized through the control route.
 */
export async function pay(baseUrl: string, reference: string, amount: number): Promise<void> {
  await seed(baseUrl, [{ reference, amount, status: 'PENDING_AUTHORIZATION' }]);
  await control(`${baseUrl}/_sandbox/charges/${encodeURIComponent(reference)}/authorize`, {});
}

/** The test file's sandbox: its URL, and the environment that points the `wallet` bin at it. */
export interface SeededSandbox {
  readonly url: string;
  /** `WALLET_SECRET_KEY` and `WALLET_BASE_URL`, filled in once the sandbox listens. */
  readonly env: Record<string, string>;
}

/**
 * Starts a `wallet-sandbox` (with `args`) for the calling test file and seeds `charges` into it
 * before its tests; stops it after them.
 */
export function seededSandbox(
  charges: readonly SandboxSeedCharge[],
  args: readonly string[] = [],
): SeededSandbox {
  let running: SandboxProcess | undefined;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    running = await startSandbox(args);
    Object.assign(env, { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: running.url });
    await seed(running.url, charges);
  });
  afterAll(() => running?.stop());
  return {
    env,
    get url() {
      if (running === undefined) throw new Error('seededSandbox(): the sandbox starts in beforeAll');
      return running.url;
    },
  };
}
