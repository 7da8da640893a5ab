/**
 * The sandbox's manual clock, as a merchant's test uses it: expiry, waiting and settlement happen
 * when the test moves the clock, with no real waiting and no fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Wallet, isValidationError } from '@wallet/node';
import { FetchDispatcher, createSandbox } from '@wallet/node/testing';
import type { Sandbox } from '@wallet/node/testing';

import { parseBinArgs } from '../../src/testing/cli/args.js';
import { TEST_KEY, buildRequest, callSandbox } from './http-helpers.js';

const MINUTE = 60_000;
const START = '2026-03-02T08:00:00.000Z';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

function manualSandbox(start = START): Sandbox {
  const sandbox = createSandbox({ clock: 'manual', now: () => new Date(start) });
  cleanup.push(() => sandbox.close());
  return sandbox;
}

/**
 * A client of the sandbox, and a promise for the next verify reaching the sandbox and being looked
 * at (its in-process answer takes promise jobs only, all run before the next macrotask): a test
 * that must act while a poll is waiting knows the poll is there.
 */
function walletFor(sandbox: Sandbox): { wallet: Wallet; nextVerify: () => Promise<void> } {
  let arrived: (() => void) | undefined;
  const dispatcher = new FetchDispatcher((request) => {
    if (request.url.includes('/verify/')) arrived?.();
    return sandbox.fetch(request);
  });
  const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher, maxRetries: 0 });
  cleanup.push(() => wallet.close());
  const nextVerify = (): Promise<void> => new Promise((resolve) => (arrived = () => setImmediate(resolve)));
  return { wallet, nextVerify };
}

async function checkout(wallet: Wallet, reference: string, amount = 500_000): Promise<string> {
  const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount, reference });
  const prompt = await wallet.charges.dispatch({
    reference,
    bankId: linkedBanks[0]!.bankId,
    authChannel: 'wallet_push',
  });
  return prompt.expiresAt;
}

const verifies = (sandbox: Sandbox): number =>
  sandbox.requests.filter((r) => r.path.includes('/verify/')).length;

describe('the manual clock', () => {
  it('expires a prompt exactly at its expiresAt: verify says FAILED from then on', async () => {
    const sandbox = manualSandbox();
    const { wallet } = walletFor(sandbox);
    const expiresAt = await checkout(wallet, 'order_expiry');
    expect(expiresAt).toBe('2026-03-02T08:10:00.000Z');

    sandbox.advance(10 * MINUTE - 1);
    expect((await wallet.charges.verify('order_expiry')).status).toBe('PENDING_AUTHORIZATION');
    expect(sandbox.now().toISOString()).toBe('2026-03-02T08:09:59.999Z');
    sandbox.advance(1);
    expect((await wallet.charges.verify('order_expiry')).status).toBe('FAILED');
    await expect(sandbox.authorize('order_expiry')).rejects.toMatchObject({ status: 409 });
  });

  it("shows a prompt that ran out as EXPIRED in the sandbox's own records, as verify shows it FAILED", async () => {
    const sandbox = manualSandbox();
    const { wallet } = walletFor(sandbox);
    await checkout(wallet, 'order_ran_out');
    sandbox.advance(10 * MINUTE);

    // Nothing asked the API since: the test reads the sandbox first.
    expect(sandbox.charge('order_ran_out')?.status).toBe('EXPIRED');
    expect(sandbox.charges.map((c) => c.status)).toEqual(['EXPIRED']);
    const state = await callSandbox(sandbox, 'GET', '/_sandbox/state');
    expect(state.body.data.charges[0].status).toBe('EXPIRED');
    expect((await wallet.charges.verify('order_ran_out')).status).toBe('FAILED');
  });

  it('answers a waitForOutcome the moment the clock passes expiresAt, with one poll', async () => {
    const sandbox = manualSandbox();
    const { wallet, nextVerify } = walletFor(sandbox);
    await checkout(wallet, 'order_wait');
    const arrived = nextVerify();
    // A poll interval no test would sit through: only a poll answered at the advance can end this.
    const outcome = wallet.charges.waitForOutcome('order_wait', { pollInterval: 3_600_000 });
    await arrived;
    sandbox.advance(10 * MINUTE);

    await expect(outcome).resolves.toMatchObject({ reference: 'order_wait', status: 'FAILED' });
    expect(verifies(sandbox)).toBe(1);
  });

  it('keeps a waitForOutcome waiting while the clock is before expiresAt, and answers an authorize', async () => {
    const sandbox = manualSandbox();
    const { wallet, nextVerify } = walletFor(sandbox);
    await checkout(wallet, 'order_paid');
    const arrived = nextVerify();
    const outcome = wallet.charges.waitForOutcome('order_paid', { pollInterval: 3_600_000 });
    await arrived;
    sandbox.advance(9 * MINUTE);
    await sandbox.authorize('order_paid');

    await expect(outcome).resolves.toMatchObject({ status: 'SUCCESS', paidAt: '2026-03-02T08:09:00.000Z' });
    expect(verifies(sandbox)).toBe(1);
  });

  it('refuses a waitForOutcome from a caller it refuses at once, as the service would: never held first', async () => {
    const sandbox = manualSandbox();
    const { wallet } = walletFor(sandbox);
    await checkout(wallet, 'order_refused');
    sandbox.setAllowedIps(['203.0.113.7']);

    const started = performance.now();
    // Held until the deadline, the 403 would reach nobody: the wait would end as "no outcome yet".
    const outcome = wallet.charges.waitForOutcome('order_refused', { timeout: 3000 });
    await expect(outcome).rejects.toMatchObject({ status: 403 });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('answers a plain verify of a waiting charge at once: only waitForOutcome polls are held', async () => {
    const sandbox = manualSandbox();
    const { wallet } = walletFor(sandbox);
    await checkout(wallet, 'order_plain');
    expect((await wallet.charges.verify('order_plain')).status).toBe('PENDING_AUTHORIZATION');
  });

  it('ends a held poll when the sandbox closes', async () => {
    const sandbox = manualSandbox();
    const { wallet, nextVerify } = walletFor(sandbox);
    await checkout(wallet, 'order_closed');
    const arrived = nextVerify();
    const answer = wallet.charges.verify('order_closed', { headers: { prefer: 'wait=25' } });
    await arrived;
    await sandbox.close();
    expect((await answer).status).toBe('PENDING_AUTHORIZATION');
  });

  it("ends a held poll when vitest's fake timers pass its wait, not seconds of real time later", async () => {
    const sandbox = manualSandbox();
    const { wallet } = walletFor(sandbox);
    await checkout(wallet, 'order_fake_timers');
    vi.useFakeTimers();
    try {
      let answered = false;
      const answer = wallet.charges.verify('order_fake_timers', { headers: { prefer: 'wait=5' } });
      void answer.finally(() => (answered = true));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(answered).toBe(true);
      expect((await answer).status).toBe('PENDING_AUTHORIZATION');
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers a poll asking wait=0 at once, with no timer to pass: under fake timers too', async () => {
    const sandbox = manualSandbox();
    const { wallet } = walletFor(sandbox);
    await checkout(wallet, 'order_wait_0');
    vi.useFakeTimers();
    try {
      let answered = false;
      const request = buildRequest(sandbox.baseUrl, 'GET', '/v1/charges/verify/order_wait_0', {
        headers: { prefer: 'wait=0' },
      });
      const answer = sandbox.fetch(request).finally(() => (answered = true));
      for (let tick = 0; tick < 10; tick++) await new Promise((resolve) => process.nextTick(resolve));
      expect(answered).toBe(true); // no time moved: neither the test's fake timers nor the sandbox's clock
      expect((await answer).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('settles a paid charge at 10:00 Lagos time the next day, either side of Lagos midnight', async () => {
    // 22:30 UTC is 23:30 in Lagos (UTC+1): still March 2nd there.
    const sandbox = manualSandbox('2026-03-02T22:30:00.000Z');
    const { wallet } = walletFor(sandbox);
    await checkout(wallet, 'order_before_midnight');
    await sandbox.authorize('order_before_midnight');
    sandbox.advance(60 * MINUTE); // 00:30 in Lagos: March 3rd
    await checkout(wallet, 'order_after_midnight');
    await sandbox.authorize('order_after_midnight');

    const before = await wallet.charges.verify('order_before_midnight');
    expect(before).toMatchObject({ status: 'SUCCESS', paidAt: '2026-03-02T22:30:00.000Z', settlement: null });

    sandbox.advance(Date.parse('2026-03-03T09:00:00.000Z') - sandbox.now().getTime() - 1);
    expect((await wallet.charges.verify('order_before_midnight')).settlement).toBeNull();
    sandbox.advance(1);
    expect((await wallet.charges.verify('order_before_midnight')).settlement).toEqual({
      status: 'SETTLED',
      settledAt: '2026-03-03T09:00:00.000Z',
    });
    expect((await wallet.charges.verify('order_after_midnight')).settlement).toBeNull();

    sandbox.advance(24 * 60 * MINUTE);
    expect((await wallet.charges.verify('order_after_midnight')).settlement).toEqual({
      status: 'SETTLED',
      settledAt: '2026-03-04T09:00:00.000Z',
    });
  });

  it('is moved and read over HTTP, and goes back to its start on reset', async () => {
    const sandbox = manualSandbox();
    const moved = await callSandbox(sandbox, 'POST', '/_sandbox/clock', { body: { advance: 90_000 } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toEqual({ clock: 'manual', now: '2026-03-02T08:01:30.000Z' });
    const read = await callSandbox(sandbox, 'GET', '/_sandbox/clock');
    expect(read.body.data).toEqual({ clock: 'manual', now: '2026-03-02T08:01:30.000Z' });

    const bad = await callSandbox(sandbox, 'POST', '/_sandbox/clock', { body: { advance: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/ms: must be from 0/);

    sandbox.reset();
    expect(sandbox.now().toISOString()).toBe(START);
  });

  it('refuses to move the real clock, and a bad clock option or step is a ValidationError', async () => {
    const real = createSandbox();
    expect(() => real.advance(1000)).toThrow(expect.objectContaining({ name: 'SandboxError', status: 409 }));
    const answer = await callSandbox(real, 'POST', '/_sandbox/clock', { body: { advance: 1000 } });
    expect(answer.status).toBe(409);
    expect((await callSandbox(real, 'GET', '/_sandbox/clock')).body.data.clock).toBe('real');

    expect(() => createSandbox({ clock: 'fake' as 'manual' })).toThrow(/clock: must be 'real' or 'manual'/);
    const sandbox = manualSandbox();
    let error: unknown;
    try {
      sandbox.advance(Number.NaN);
    } catch (caught) {
      error = caught;
    }
    expect(isValidationError(error)).toBe(true);
  });

  it('is chosen on the bin with --clock manual', () => {
    const parsed = parseBinArgs(['--clock', 'manual']);
    expect(parsed).toMatchObject({ kind: 'serve', sandbox: { clock: 'manual' } });
    expect(parseBinArgs(['--clock', 'later'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/--clock: must be 'real' or 'manual'/),
    });
  });
});
