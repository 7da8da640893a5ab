/**
 * The event types: checking the kind must tell TypeScript the data's type. The `expectTypeOf` and
 * `@ts-expect-error` lines are checked by `npm run typecheck`; the last test also compiles snippets
 * with the TypeScript compiler here, with a control that proves the check can fail.
 */
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, expectTypeOf, test } from 'vitest';

import { createWebhookHandler, signWebhook, verifyWebhook } from '../../src/webhooks.js';
import type {
  ChargeSuccessData,
  ChargeSuccessEvent,
  UnknownWebhookEvent,
  WebhookEvent,
} from '../../src/webhooks.js';
import { CHARGE_SUCCESS, SECRET } from './helpers.js';

/** What a merchant's handler does with an event: both branches compile without casts. */
function describeEvent(event: WebhookEvent): string {
  if (event.event === 'charge.success') {
    expectTypeOf(event).toEqualTypeOf<ChargeSuccessEvent>();
    expectTypeOf(event.data).toEqualTypeOf<ChargeSuccessData>();
    expectTypeOf(event.data.amount).toBeNumber();
    expectTypeOf(event.data.customer.handle).toBeString();
    return `paid ${event.data.reference} ${event.data.amount} by ${event.data.customer.handle}`;
  }
  expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
  expectTypeOf(event.data).toBeUnknown();
  // @ts-expect-error data of an unknown kind must be checked before use
  void event.data.amount;
  const kind: string = event.event;
  return `ignored ${kind}`;
}

function viaSwitch(event: WebhookEvent): number | undefined {
  switch (event.event) {
    case 'charge.success':
      return event.data.amount;
    default:
      return undefined;
  }
}

describe('event types', () => {
  test('narrowing on the kind types the data (and the narrowed code runs on real events)', () => {
    const charge = signWebhook(CHARGE_SUCCESS, SECRET);
    const paid = verifyWebhook(charge.body, charge.signature, SECRET);
    const other = signWebhook({ event: 'refund.processed', data: { amount: 1 } }, SECRET);
    const unknown = verifyWebhook(other.body, other.signature, SECRET);
    expect(describeEvent(paid)).toBe('paid order_1042 500000 by @ada');
    expect(describeEvent(unknown)).toBe('ignored refund.processed');
    expect(viaSwitch(paid)).toBe(500_000);
    expect(viaSwitch(unknown)).toBeUndefined();
    // A kind the SDK does not type yet is compared as a string.
    expect((unknown.event as string) === 'refund.processed').toBe(true);
  });

  test('without a check, the data is not assumed to be a charge', () => {
    expectTypeOf<WebhookEvent>().toExtend<{ event: string; data: unknown }>();
    expectTypeOf<WebhookEvent['data']>().toBeUnknown();
    createWebhookHandler({
      secret: SECRET,
      onEvent: (event) => {
        expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
        // @ts-expect-error the kind was not checked
        void event.data.reference;
      },
    });
  });

  test('the TypeScript compiler agrees, and the check catches a union that does not narrow', () => {
    const here = fileURLToPath(new URL('.', import.meta.url));
    const file = `${here}__narrowing__.ts`;
    const source = `
      import type { WebhookEvent, ChargeSuccessData } from '../../src/webhooks.js';
      type Naive = { event: 'charge.success'; data: ChargeSuccessData } | { event: string; data: unknown };
      export function sdk(e: WebhookEvent): number { return e.event === 'charge.success' ? e.data.amount : 0; }
      export function naive(e: Naive): number { return e.event === 'charge.success' ? e.data.amount : 0; }
      export function other(e: WebhookEvent): boolean { return (e.event as string) === 'refund.processed'; }
    `;
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
    };
    const host = ts.createCompilerHost(options);
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (name) => name === file || fileExists(name);
    host.readFile = (name) => (name === file ? source : readFile(name));
    host.getSourceFile = (name, version, ...rest) =>
      name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
    const program = ts.createProgram([file], options, host);
    const diagnostics = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map(
        (d) =>
          `${ts.getLineAndCharacterOfPosition(d.file!, d.start!).line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
      );
    // Line 4 (the naive union) must fail, proving the check can fail; lines 3 and 5 (the SDK's types) must not.
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/^4: .*'e\.data' is of type 'unknown'/);
  });
});
