// What the TSDoc examples assume already exists around them, so each example can stay a few lines
// a merchant copies. An example that declares one of these names itself shadows it.
import type { IncomingMessage } from 'node:http';
import type { setupServer as SetupServer } from 'msw/node';
import type { expect as Expect } from 'vitest';
import type { LinkedBank, Wallet as WalletClient } from '@wallet/node';
import type { Sandbox } from '@wallet/node/testing';

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
  /** A webhook delivery as a Node server receives it. */
  const rawBody: string;
  const req: IncomingMessage;
  /** Test tooling the testing examples are written for. */
  const expect: typeof Expect;
  const setupServer: typeof SetupServer;
}
