import { afterEach, describe, expect, it } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import type { Sandbox, SandboxOptions } from '@wallet/node/testing';

import { callSandbox, paidCharge, resolveAndDispatch } from './http-helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

function track(options: SandboxOptions): { sandbox: Sandbox; lines: string[] } {
  const lines: string[] = [];
  const sandbox = createSandbox({
    ...options,
    logger: { info: (l) => lines.push(l), warn: (l) => lines.push(l) },
  });
  sandboxes.push(sandbox);
  return { sandbox, lines };
}

describe('maxCharges', () => {
  it('forgets the oldest finished charges first, keeps those waiting for the customer, and says so', async () => {
    const { sandbox, lines } = track({ maxCharges: 4 });
    await resolveAndDispatch(sandbox, 'waiting_1', 1000); // oldest, but waiting: kept
    await paidCharge(sandbox, 'paid_2', 1000);
    await resolveAndDispatch(sandbox, 'declined_3', 1000);
    await sandbox.decline('declined_3');
    await paidCharge(sandbox, 'paid_4', 1000);
    await resolveAndDispatch(sandbox, 'new_5', 1000);
    expect(sandbox.charges.map((c) => c.reference)).toEqual(['waiting_1', 'declined_3', 'paid_4', 'new_5']);
    expect(lines).toContainEqual(
      expect.stringMatching(/ sandbox full \(maxCharges 4\): forgot 1 oldest finished charge, paid_2$/),
    );
    expect((await callSandbox(sandbox, 'GET', '/v1/charges/verify/paid_2')).status).toBe(404);
    await sandbox.authorize('waiting_1');
    expect(sandbox.charge('waiting_1')?.status).toBe('SUCCESS');
  });

  it('refuses a new charge with 503 when every charge kept is waiting, and keeps them all', async () => {
    const { sandbox } = track({ maxCharges: 2 });
    await resolveAndDispatch(sandbox, 'a', 1000);
    await resolveAndDispatch(sandbox, 'b', 1000);
    const full = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '@ada', amount: 1000, reference: 'c' },
    });
    expect(full.status).toBe(503);
    expect(full.body.message).toMatch(/maxCharges/);
    expect(sandbox.charges.map((c) => c.reference)).toEqual(['a', 'b']);
    expect(() => sandbox.seed([{ reference: 'd', amount: 1, status: 'FAILED' }])).toThrow(
      /No room for 1 charges/,
    );
  });

  it('does not save a 503 of a full sandbox under its idempotency key: the same key works once there is room', async () => {
    const { sandbox } = track({ maxCharges: 1 });
    await resolveAndDispatch(sandbox, 'a', 1000);
    const resolveB = { body: { handle: '@ada', amount: 1000, reference: 'b' }, idempotencyKey: 'k_b' };
    const full = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', resolveB);
    expect(full.status).toBe(503);
    await sandbox.decline('a');
    const retried = await callSandbox(sandbox, 'POST', '/v1/charges/resolve-handle', resolveB);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(sandbox.charges.map((c) => c.reference)).toEqual(['b']);
  });

  it('keeps the charges, refunds and debits of a long run within the limit, and the state route with them', async () => {
    const { sandbox, lines } = track({ maxCharges: 1000 });
    for (let batch = 0; batch < 10; batch += 1) {
      sandbox.seed(
        Array.from({ length: 500 }, (_, i) => ({
          reference: `r${batch}_${i}`,
          amount: 1000,
          status: 'SUCCESS' as const,
          refunded: 10,
        })),
      );
    }
    expect(sandbox.charges).toHaveLength(1000);
    expect(sandbox.charges[0]?.reference).toBe('r8_0');
    expect(sandbox.debits).toHaveLength(1000);
    expect(sandbox.refunds).toHaveLength(1000);
    const state = await callSandbox(sandbox, 'GET', '/_sandbox/state');
    expect(state.body.data.charges).toHaveLength(1000);
    expect(lines.filter((l) => / sandbox full /.test(l))).toHaveLength(8);
  });
});
