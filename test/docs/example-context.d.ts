// What the TSDoc examples and the guides assume already exists around them, so each example can
// stay a few lines a merchant copies. An example that declares one of these names itself shadows
// it. Everything here is either the merchant's own code (named in the guide's prose or comments) or
// a runtime's global the guide targets; the SDK's own names are never declared here.
import type { IncomingMessage } from 'node:http';
import type { LanguageModel } from 'ai';
import type { setupServer as SetupServer } from 'msw/node';
import type { expect as Expect } from 'vitest';
import type { LinkedBank, Wallet as WalletClient } from '@wallet/node';
import type { ChargeSuccessData, WebhookEvent } from '@wallet/node/webhooks';
import type { Sandbox, SandboxSeedCharge } from '@wallet/node/testing';

declare global {
  /** A client built earlier: `new Wallet()`. */
  const wallet: WalletClient;
  /** The banks from an earlier `resolveHandle`. */
  const linkedBanks: LinkedBank[];
  /** A sandbox made earlier with `createSandbox()`. */
  const sandbox: Sandbox;
  /** The merchant's own order code. */
  function fulfil(reference: string, amount: number): Promise<void>;
  function markPaid(reference: string, amount: number): Promise<void>;
  /** The merchant's own order code the webhooks guide calls (ships the order, once). */
  function fulfilOrder(data: ChargeSuccessData): Promise<void>;
  function orderAmount(reference: string): Promise<number>;
  function shipOnce(reference: string): Promise<void>;
  /** The merchant's own event handler, passed to a webhook handler as `onEvent`. */
  function onEvent(event: WebhookEvent): Promise<void>;
  /** A webhook delivery as a Node server receives it. */
  const rawBody: string;
  const req: IncomingMessage;
  /** The references of the ledger's paid orders (settlements guide). */
  const paidReferences: string[];
  /** The paid charges the settlements guide seeds: 300, one every 20 minutes. */
  const rows: SandboxSeedCharge[];
  /** Any AI SDK model (agent toolkit's README). */
  const model: LanguageModel;
  /** Test tooling the testing examples are written for. */
  const expect: typeof Expect;
  const setupServer: typeof SetupServer;
  /**
   * The part of Deno's global the webhooks guide uses, as Deno 2 declares it (the guide's Deno
   * snippet runs in Deno; `deno` ships its types inside its binary, not as an npm package).
   */
  /** The part of Bun's global the webhooks guide uses, as Bun 1 declares it (`bun-types`). */
  namespace Bun {
    function serve(options: {
      port?: number;
      hostname?: string;
      fetch: (request: Request) => Response | Promise<Response>;
    }): unknown;
  }
  namespace Deno {
    function serve(handler: (request: Request) => Response | Promise<Response>): unknown;
    function serve(
      options: { port?: number; hostname?: string },
      handler: (request: Request) => Response | Promise<Response>,
    ): unknown;
    const env: { get(key: string): string | undefined };
    // Not used by the guides, but the SDK's own Deno probe (src/platform/bun-deno.ts) reads it, and
    // this file is compiled with src/ by `tsc -p test`.
    const permissions: {
      querySync(descriptor: { name: 'env'; variable?: string }): { state: 'granted' | 'denied' | 'prompt' };
    };
  }
}
