/**
 * An in-process sandbox with a client and the toolkit over it, a fake clock, and a view of what
 * the sandbox was sent: the agent toolkit tests' one setup.
 */
import { Wallet } from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

import {
  walletTools,
  type WalletTool,
  type WalletToolsOptions,
} from '../../packages/agent-toolkit/src/index.js';

export const TEST_KEY = 'sk_test_agentToolkit0000000000000001';
export const LIVE_KEY = 'sk_live_agentToolkit0000000000000001';

/** A sandbox, a client on it, and a clock the test moves. */
export interface Rig {
  sandbox: Sandbox;
  wallet: Wallet;
  clock: { now: number };
  tools(options?: Omit<WalletToolsOptions, 'wallet'>): Record<string, WalletTool>;
  /** The requests the sandbox answered, as `METHOD path`. */
  sent(): string[];
  /** Resolves, dispatches and authorizes a charge of `amount`, so it can be refunded. */
  paid(reference: string, amount: number): Promise<void>;
  close(): Promise<void>;
}

export function rig(): Rig {
  const sandbox = createSandbox();
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: sandbox.baseUrl,
    dispatcher: sandbox.dispatcher,
    maxRetries: 0,
  });
  const clock = { now: Date.parse('2026-11-24T12:00:00Z') };
  return {
    sandbox,
    wallet,
    clock,
    tools(options = {}) {
      const list = walletTools({ wallet, now: () => clock.now, ...options });
      return Object.fromEntries(list.map((tool) => [tool.name, tool]));
    },
    sent: () => sandbox.requests.map((r) => `${r.method} ${r.path}`),
    async paid(reference, amount) {
      await wallet.charges.resolveHandle({ handle: '@ada', amount, reference });
      const resolved = await wallet.charges.resolveHandle({ handle: '@ada', amount, reference });
      await wallet.charges.dispatch({
        reference,
        bankId: resolved.linkedBanks[0]!.bankId,
        authChannel: 'wallet_push',
      });
      await sandbox.authorize(reference);
    },
    close: () => sandbox.close(),
  };
}
