/**
 * The merchant-visible guarantees of the fault campaign, as one `describe` shared by the short form
 * (npm test) and the long form (npm run test:stress); only the size differs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from '@wallet/node';
import { runFaultCampaign, type CampaignFigures, type CampaignOptions } from './fault-campaign.js';
import { report } from './tools.js';

export function faultSuite(
  name: string,
  options: CampaignOptions,
  transport: Partial<ClientOptions> = {},
): void {
  describe(`${name}: ${options.calls} POSTs at concurrency ${options.concurrency}, seed ${options.seed}`, () => {
    let f: CampaignFigures;
    beforeAll(async () => {
      f = await runFaultCampaign(options, transport);
      report(name, { ...options, ...f });
    }, 600_000);

    it('every failure is a typed WalletError (no untyped throw reaches the merchant)', () => {
      expect(f.untypedErrors).toBe(0);
      expect(f.successes + Object.values(f.typedFailures).reduce((a, b) => a + b, 0)).toBe(f.calls);
    });

    // Guards against a vacuous run (a server that never answers, or never faults).
    it('the faults really happened: calls succeeded, and calls the service executed failed', () => {
      expect(f.successes).toBeGreaterThan(0);
      expect(f.executedFailures).toBeGreaterThan(0);
    });

    it('never charges twice: no reference executed more than once, before or after recovery', () => {
      expect(f.doubleExecutions).toBe(0);
    });

    it('never hides an unknown outcome: a failed call the service executed says outcomeUnknown: true', () => {
      expect(f.executedButNotUnknown).toBe(0);
    });

    it('every failure carries endpoint, attempts and the idempotencyKey to recover with', () => {
      expect(f.missingOutcomeFields).toBe(0);
    });

    it('retrying every failure with its carried key settles it, and nothing executes twice', () => {
      expect(f.retriedWithCarriedKey).toBe(f.calls - f.successes);
      expect(f.retrySuccesses).toBe(f.retriedWithCarriedKey);
      expect(f.executedExactlyOnceAfterRetry).toBe(f.calls);
    });

    it('the key appears on no surface of any error or log line (debug level), and JSON.stringify never throws', () => {
      expect(f.secretLeaks).toEqual([]);
      expect(f.stringifyThrows).toBe(0);
      expect(f.secretSurfacesChecked).toBeGreaterThan(0);
    });
  });
}
