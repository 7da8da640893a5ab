/**
 * Charges in every state a reconciliation meets, put straight into the sandbox with
 * `sandbox.seed()` (the tests need the data, not the calls that would make it), and a watched
 * dispatcher in front of it.
 */
import { Wallet } from '@wallet/node';
import type { Sandbox, SandboxSeedStatus } from '@wallet/node/testing';
import { FetchDispatcher } from '@wallet/node/testing';

export const TEST_KEY = 'sk_test_reconcile_4eC39HqLyjWDarjtT1zdp7dc';

/** Makes `reference` a charge of `amount` Kobo in `status`. */
export function seedCharge(sandbox: Sandbox, reference: string, amount: number, status: SandboxSeedStatus) {
  sandbox.seed([{ reference, amount, status }]);
  return Promise.resolve();
}

/** A dispatcher in front of the sandbox that counts verifies in flight and can hold or answer some itself. */
export function watchedSandbox(
  sandbox: Sandbox,
  intercept?: (request: Request) => Promise<Response | undefined>,
) {
  const stats = {
    inFlight: 0,
    maxInFlight: 0,
    verifies: 0,
    started: [] as { reference: string; at: number }[],
  };
  const dispatcher = new FetchDispatcher(async (request) => {
    const path = new URL(request.url).pathname;
    const isVerify = path.includes('/v1/charges/verify/');
    if (isVerify) {
      stats.verifies++;
      stats.started.push({ reference: decodeURIComponent(path.split('/').pop()!), at: performance.now() });
    }
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      return (await intercept?.(request)) ?? (await sandbox.fetch(request));
    } finally {
      stats.inFlight--;
    }
  });
  const wallet = (maxRetries = 2) =>
    new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher, maxRetries });
  return { dispatcher, stats, wallet };
}

/** Waits a few event-loop turns (for "nothing more happened" checks). */
export const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));
