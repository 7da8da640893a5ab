/**
 * What a model is shown: tool names, JSON Schemas derived from the SDK's schemas, annotations and
 * descriptions; what it reads back from the read-only tools; and options refused by name.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { walletTools } from '../../packages/agent-toolkit/src/index.js';
import { rig, type Rig } from './setup.js';

let r: Rig;
afterEach(() => r.close());

describe('the tools a model sees', () => {
  it('are read-only unless allow names the money tools', () => {
    r = rig();
    expect(Object.keys(r.tools()).sort()).toEqual(['get_charge', 'resolve_customer', 'wait_for_charge']);
    expect(Object.keys(r.tools({ allow: ['refund_charge'] })).sort()).toEqual([
      'get_charge',
      'refund_charge',
      'resolve_customer',
      'wait_for_charge',
    ]);
  });

  it('have JSON Schemas from the SDK schemas: amounts whole Kobo, channels enumerated, no extra keys', () => {
    r = rig();
    const tools = r.tools({ allow: ['dispatch_charge', 'refund_charge'] });
    expect(tools['resolve_customer']!.inputSchema).toEqual({
      type: 'object',
      properties: {
        handle: { type: 'string', description: expect.stringContaining('@ada') },
        amount: {
          type: 'integer',
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: expect.stringContaining('Kobo'),
        },
        reference: { type: 'string', description: expect.any(String) },
      },
      required: ['handle', 'amount', 'reference'],
      additionalProperties: false,
    });
    expect(tools['refund_charge']!.inputSchema).toMatchObject({
      required: ['reference'],
      properties: { amount: { type: 'integer', minimum: 1 }, confirmationToken: { type: 'string' } },
    });
    expect(tools['wait_for_charge']!.inputSchema).toMatchObject({
      properties: { timeoutSeconds: { type: 'integer', minimum: 1, maximum: 50 } },
    });
    for (const tool of Object.values(tools)) {
      expect(tool.description).toMatch(/Kobo/);
      expect(tool.annotations.destructiveHint).toBe(!tool.annotations.readOnlyHint);
    }
  });

  it('answer with amounts in Naira and Kobo and statuses with their meaning', async () => {
    r = rig();
    await r.paid('read_1', 123_456);
    const { get_charge, resolve_customer } = r.tools();
    const charge = await get_charge!.execute({ reference: 'read_1' });
    expect(charge.text).toContain('Charge: paid');
    expect(charge.text).toContain('"reference":"read_1","status":"SUCCESS"');
    expect(charge.text).toContain('Amount ₦1,234.56 (123456 Kobo)');
    expect(charge.data).toMatchObject({
      amount: { kobo: 123_456, naira: '₦1,234.56' },
      fee: { kobo: 2_469 },
    });
    const missing = await get_charge!.execute({ reference: 'nope' });
    expect(missing).toMatchObject({
      isError: true,
      data: { error: { name: 'NotFoundError', outcomeUnknown: false } },
    });
    expect(missing.text).toContain('do not guess');
    const customer = await resolve_customer!.execute({ handle: '@tunde', amount: 100, reference: 'read_2' });
    expect(customer.text).toContain('"bankId":"bnk_tunde_zenith","bankName":"Zenith Bank"');
    // Advice names only tools this agent has.
    expect(customer.text).toContain('This agent cannot charge');
    const charging = r.tools({ allow: ['dispatch_charge'] })['resolve_customer']!;
    const again = await charging.execute({ handle: '@tunde', amount: 100, reference: 'read_2' });
    expect(again.text).toContain('To charge, use dispatch_charge');
  });

  it('refuse bad input with the SDK messages, sending nothing', async () => {
    r = rig();
    const { resolve_customer, wait_for_charge } = r.tools();
    const wrong = await resolve_customer!.execute({ handel: '@ada', amount: '5000', reference: '' });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain("handel is not a known parameter (did you mean 'handle'?)");
    expect(wrong.text).toContain('amount must be a number of Kobo');
    expect(wrong.text).toContain('reference must not be empty');
    expect((await wait_for_charge!.execute({ reference: 'x', timeoutSeconds: 3600 })).isError).toBe(true);
    expect((await resolve_customer!.execute(null)).isError).toBe(true);
    expect(r.sent()).toEqual([]);
  });

  it('refuse wrong options by name at construction', () => {
    r = rig();
    expect(() =>
      walletTools({
        wallet: r.wallet,
        allow: ['refund_charge', 'delete_everything' as never],
        limits: { perRefund: 10.5, daily: 1 } as never,
        confirmSecret: 'short',
      }),
    ).toThrow(
      /allow: "delete_everything" is not a money tool.*limits\.daily: is not an option.*limits\.perRefund: must be a whole number of Kobo, 0 or more, not 10\.5.*confirmSecret/,
    );
  });
});
