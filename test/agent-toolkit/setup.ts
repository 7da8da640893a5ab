/**
 * An in-process sandbox with a client and the toolkit over it, a fake clock, and a view of what
 * the sandbox was sent: the agent toolkit tests' one setup.
 */
import { Wallet } from '@wallet/node';
import { createSandbox, type Sandbox } from '@wallet/node/testing';

import {
  memorySpendLedger,
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
  /**
   * A client on the same sandbox whose answers pass through `tamper` after the sandbox acted: it
   * may answer another response, or throw to lose the answer.
   */
  tampered(tamper: Tamper): Wallet;
  /** The requests the sandbox answered, as `METHOD path`. */
  sent(): string[];
  /** Resolves, dispatches and authorizes a charge of `amount`, so it can be refunded. */
  paid(reference: string, amount: number): Promise<void>;
  close(): Promise<void>;
}

/** Sees each request after the sandbox acted on it, and answers what the client gets. */
export type Tamper = (request: Request, response: Response) => Promise<Response> | Response;

/** Loses an answer: the connection reset after the request was sent. */
export function lost(): never {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
  });
}

/** The same response with its JSON `data` changed by `edit`. */
export async function rewritten(
  response: Response,
  edit: (data: Record<string, unknown>) => void,
): Promise<Response> {
  const body = (await response.json()) as { data: Record<string, unknown> };
  edit(body.data);
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
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
      // The default ledger is a file; tests that do not name one get a fresh one in memory.
      const ledger = memorySpendLedger({ now: () => clock.now });
      const list = walletTools({ wallet, now: () => clock.now, ledger, ...options });
      return Object.fromEntries(list.map((tool) => [tool.name, tool]));
    },
    tampered(tamper) {
      return new Wallet({
        apiKey: TEST_KEY,
        baseUrl: sandbox.baseUrl,
        maxRetries: 0,
        fetch: async (input, init) => {
          const request = new Request(input, init);
          return tamper(request, await sandbox.fetch(request.clone()));
        },
      });
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
