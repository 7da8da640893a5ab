/**
 * Prompts in doubt stay counted until the service proves them: a reference can be prompted again
 * after a decline, so a charge that reads FAILED says nothing of a prompt still on its way, and a
 * repeat that stops before sending says nothing of its first try.
 */
import { afterEach, expect, it } from 'vitest';

import { Wallet } from '@wallet/node';

import {
  memorySpendLedger,
  walletTools,
  type SpendLedger,
  type WalletTool,
} from '../../packages/agent-toolkit/src/index.js';
import { TEST_KEY, lost, rewritten, rig, type Rig } from './setup.js';

let r: Rig;
afterEach(() => r.close());

// A client whose dispatches, once `delay.on`, lose their answer before the sandbox saw them.
function delaying(): { wallet: Wallet; delay: { on: boolean; late?: Request } } {
  const delay: { on: boolean; late?: Request } = { on: false };
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: r.sandbox.baseUrl,
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (!delay.on || !request.url.endsWith('/dispatch')) return r.sandbox.fetch(request);
      delay.late = request;
      return lost();
    },
  });
  return { wallet, delay };
}

function toolsOf(wallet: Wallet, ledger: SpendLedger): Record<string, WalletTool> {
  const list = walletTools({ wallet, ledger, allow: ['dispatch_charge'], now: () => r.clock.now });
  return Object.fromEntries(list.map((t) => [t.name, t]));
}

const args = (reference: string) => ({
  handle: '@ada',
  amount: 40_000,
  reference,
  authChannel: 'wallet_push',
});

it('a prompt in doubt stays counted when the charge reads FAILED from an earlier prompt: it may land later', async () => {
  r = rig();
  const { wallet, delay } = delaying();
  const ledger = memorySpendLedger({ now: () => r.clock.now });
  const tools = toolsOf(wallet, ledger);
  expect((await tools['dispatch_charge']!.execute(args('again_1'))).isError).toBe(false);
  await r.sandbox.decline('again_1');
  // The customer declined; the agent prompts again, and the connection drops before it landed.
  delay.on = true;
  expect((await tools['dispatch_charge']!.execute(args('again_1'))).text).toContain('OUTCOME UNKNOWN');
  // As the advice says, it checks with get_charge: FAILED, from the first prompt.
  const seen = await tools['get_charge']!.execute({ reference: 'again_1' });
  expect(seen.data).toMatchObject({ status: 'FAILED' });
  await r.sandbox.fetch(delay.late!);
  await r.sandbox.authorize('again_1');
  // The second prompt was paid: the ledger still counts it; the first one's amount came back.
  expect(await ledger.total('charges')).toBe(40_000);
});

it('a prompt in doubt is given back by a FAILED charge once it can no longer land (the cut-off)', async () => {
  r = rig();
  const { wallet, delay } = delaying();
  const ledger = memorySpendLedger({ now: () => r.clock.now });
  const tools = toolsOf(wallet, ledger);
  await tools['dispatch_charge']!.execute(args('again_2'));
  await r.sandbox.decline('again_2');
  delay.on = true;
  await tools['dispatch_charge']!.execute(args('again_2'));
  await tools['get_charge']!.execute({ reference: 'again_2' });
  expect(await ledger.total('charges')).toBe(40_000);
  r.clock.now += 5 * 60_000;
  await tools['get_charge']!.execute({ reference: 'again_2' });
  expect(await ledger.total('charges')).toBe(0);
});

it('a repeat of a prompt in doubt stays counted when the resolve answer now shows no active bank', async () => {
  r = rig();
  let drop = true;
  let lie = false;
  const wallet = r.tampered((q, a) => {
    if (drop && q.url.endsWith('/dispatch')) return lost();
    return lie && q.url.endsWith('/resolve-handle') ? rewritten(a, (d) => (d['linkedBanks'] = [])) : a;
  });
  const ledger = memorySpendLedger({ now: () => r.clock.now });
  const tools = toolsOf(wallet, ledger);
  expect((await tools['dispatch_charge']!.execute(args('again_3'))).text).toContain('OUTCOME UNKNOWN');
  // The repeat's resolve answer says the customer has no bank: it does not say the first prompt was not sent.
  drop = false;
  lie = true;
  const repeat = await tools['dispatch_charge']!.execute(args('again_3'));
  expect(repeat.data).toMatchObject({ refusedBy: 'bank' });
  expect(repeat.text).toContain('stays counted');
  await r.sandbox.authorize('again_3');
  expect(await ledger.total('charges')).toBe(40_000);
});

it('a ledger that fails while settling a prompt still lets get_charge and wait_for_charge tell the outcome', async () => {
  r = rig();
  const inner = memorySpendLedger({ now: () => r.clock.now });
  const ledger: SpendLedger = {
    ...inner,
    timeZone: inner.timeZone,
    finish: (key, state) =>
      state === 'failed' ? Promise.reject(new Error('busy')) : inner.finish(key, state),
  };
  const tools = toolsOf(r.wallet, ledger);
  await tools['dispatch_charge']!.execute(args('again_4'));
  await r.sandbox.decline('again_4');
  for (const [name, input] of [
    ['get_charge', { reference: 'again_4' }],
    ['wait_for_charge', { reference: 'again_4', timeoutSeconds: 1 }],
  ] as const) {
    const seen = await tools[name]!.execute(input);
    expect(seen.isError, name).toBe(false);
    expect(seen.data, name).toMatchObject({ status: 'FAILED' });
  }
  // Not given back: at worst an amount stays counted.
  expect(await ledger.total('charges')).toBe(40_000);
});
