/**
 * The webhook functions besides the handlers (signWebhook, verifyWebhook, verifyWebhookAsync) throw
 * only typed errors for bad input: a payload, a secret, a signature or a body they cannot use.
 */
import { describe, expect, test } from 'vitest';

import {
  ValidationError,
  WebhookVerificationError,
  signWebhook,
  verifyWebhook,
  verifyWebhookAsync,
} from '../../src/webhooks.js';
import { BODY, SECRET, SIGNATURE, thrown } from './helpers.js';

describe('the other public functions throw only typed errors for bad input', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  test.each([
    ['undefined', undefined],
    ['a function', () => 1],
    ['a BigInt', { amount: 1n }],
    ['a cycle', cyclic],
    [
      'a throwing toJSON',
      {
        toJSON: () => {
          throw new RangeError('no');
        },
      },
    ],
    ['bytes that are not UTF-8', new Uint8Array([0xff, 0xfe])],
  ])('signWebhook refuses %s as the payload with a ValidationError', (_, payload) => {
    expect(thrown(() => signWebhook(payload, SECRET))).toBeInstanceOf(ValidationError);
  });

  // A body handed to a worker (postMessage, structuredClone with transfer) leaves its ArrayBuffer
  // detached: new Uint8Array() of it throws a TypeError.
  const detached = (): ArrayBuffer => {
    const buffer = new TextEncoder().encode(BODY).buffer;
    structuredClone(buffer, { transfer: [buffer] });
    return buffer;
  };

  test('signWebhook refuses a detached ArrayBuffer as the payload with a ValidationError', () => {
    const error = thrown(() => signWebhook(detached(), SECRET));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('detached');
  });

  test('verifyWebhook and verifyWebhookAsync refuse a detached ArrayBuffer with raw_body_required', async () => {
    expect(thrown(() => verifyWebhook(detached(), SIGNATURE, SECRET))).toMatchObject({
      reason: 'raw_body_required',
    });
    await expect(verifyWebhookAsync(detached(), SIGNATURE, SECRET)).rejects.toMatchObject({
      reason: 'raw_body_required',
    });
  });

  test.each([null, undefined, 42, {}, [], [''], [42], '', Symbol('s')])(
    'verifyWebhook and verifyWebhookAsync refuse %s as the secret with missing_secret',
    async (secret) => {
      const error = thrown(() => verifyWebhook(BODY, SIGNATURE, secret as never));
      expect(error).toMatchObject({ reason: 'missing_secret' });
      await expect(verifyWebhookAsync(BODY, SIGNATURE, secret as never)).rejects.toMatchObject({
        reason: 'missing_secret',
      });
    },
  );

  test.each([42, true, {}, Symbol('s'), [42], [null], [SIGNATURE, 42], 10n])(
    'verifyWebhook refuses %s as the signature with a WebhookVerificationError',
    async (signature) => {
      expect(thrown(() => verifyWebhook(BODY, signature as never, SECRET))).toBeInstanceOf(
        WebhookVerificationError,
      );
      await expect(verifyWebhookAsync(BODY, signature as never, SECRET)).rejects.toBeInstanceOf(
        WebhookVerificationError,
      );
    },
  );

  test.each([null, undefined, 42, {}, [], new Date(), new DataView(new ArrayBuffer(4)), new Uint16Array(4)])(
    'verifyWebhook refuses %s as the body with raw_body_required',
    (body) => {
      expect(thrown(() => verifyWebhook(body as never, SIGNATURE, SECRET))).toMatchObject({
        reason: 'raw_body_required',
      });
    },
  );
});
