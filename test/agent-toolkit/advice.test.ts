/**
 * Advice after a money call the service refused (nothing moved) is advice that works: the spent
 * confirmation token is named as spent, and a new preview is the way to try again.
 */
import { afterEach, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';

import { memorySpendLedger, walletTools } from '../../packages/agent-toolkit/src/index.js';
import { rig, TEST_KEY, type Rig } from './setup.js';

let r: Rig;
afterEach(() => r.close());

it('after a refusal that moved nothing, the advice to try again is one that works', async () => {
  r = rig();
  await r.paid('tok_3', 100_000);
  let slow = true;
  // A real 429: the service refuses before acting (the sandbox never sees the request).
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: r.sandbox.baseUrl,
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (slow && request.method === 'POST' && request.url.endsWith('/v1/refunds'))
        return new Response('{}', { status: 429, headers: { 'retry-after': '1' } });
      return r.sandbox.fetch(request);
    },
  });
  const list = walletTools({ wallet, ledger: memorySpendLedger(), allow: ['refund_charge'] });
  const tools = Object.fromEntries(list.map((t) => [t.name, t]));
  const refund = tools['refund_charge']!;
  const args = { reference: 'tok_3', amount: 10_000 };
  const preview = await refund.execute(args);
  const confirmed = { ...args, confirmationToken: preview.data!['confirmationToken'] };
  const limited = await refund.execute(confirmed);
  expect(limited.text).toContain('RateLimitError');
  expect(limited.text).toContain('call refund_charge without confirmationToken for a new preview');
  slow = false;
  // The model that retries the same token anyway is not told the refund was sent.
  const same = await refund.execute(confirmed);
  expect(same.data).toMatchObject({ refusedBy: 'token_used' });
  expect(same.text).not.toContain('sent once');
  const again = await refund.execute(args);
  const done = await refund.execute({ ...args, confirmationToken: again.data!['confirmationToken'] });
  expect(done.isError).toBe(false);
  expect(r.sandbox.refunds.map((x) => x.amount)).toEqual([10_000]);
});
