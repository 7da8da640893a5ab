import { describe, expect, test } from 'vitest';

import { signWebhook, ValidationError, verifyWebhook, WebhookVerificationError } from '../../src/webhooks.js';
import { BODY, CHARGE_SUCCESS, SECRET, SIGNATURE, hmacHex } from './helpers.js';

describe('signWebhook', () => {
  test('serializes an object with JSON.stringify and signs those bytes', () => {
    const signed = signWebhook(CHARGE_SUCCESS, SECRET);
    expect(signed).toEqual({ body: BODY, signature: SIGNATURE });
    expect(verifyWebhook(signed.body, signed.signature, SECRET)).toEqual(CHARGE_SUCCESS);
  });

  test('sends a string as is, so tests can choose their own spacing', () => {
    const body = `{ "event": "charge.success",\n  "data": ${JSON.stringify(CHARGE_SUCCESS.data)} }`;
    expect(signWebhook(body, SECRET)).toEqual({ body, signature: hmacHex(body, SECRET) });
  });

  test('signs bytes as they are and returns them as the UTF-8 body', () => {
    const bytes = new TextEncoder().encode('{"event":"x","data":{"name":"Ọ̀ṣun"}}');
    const signed = signWebhook(bytes, SECRET);
    expect(signed.signature).toBe(hmacHex(bytes, SECRET));
    expect(new TextEncoder().encode(signed.body)).toEqual(bytes);
  });

  test('signs an ArrayBuffer as the bytes it holds, as the verifiers read it (not as the object {})', () => {
    const bytes = new TextEncoder().encode(BODY);
    const signed = signWebhook(bytes.buffer, SECRET);
    expect(signed).toEqual({ body: BODY, signature: SIGNATURE });
    expect(verifyWebhook(bytes.buffer, signed.signature, SECRET)).toEqual(CHARGE_SUCCESS);
  });

  // The verifiers refuse these bodies (raw_body_required); JSON.stringify signed '{}' or '{"0":123,…}'.
  test.each([
    ['a DataView', new DataView(new TextEncoder().encode(BODY).buffer)],
    ['a SharedArrayBuffer', new SharedArrayBuffer(8)],
    ['a Uint16Array', new Uint16Array([0x7b, 0x7d])],
  ])('refuses %s, which the verifiers do not read as a body, instead of signing its JSON', (_, payload) => {
    expect(() => signWebhook(payload, SECRET)).toThrow(ValidationError);
  });

  test('refuses bytes that are not UTF-8, which the returned string could not carry', () => {
    expect(() => signWebhook(new Uint8Array([0xff, 0xfe]), SECRET)).toThrow(ValidationError);
  });

  test('refuses a payload that JSON cannot represent', () => {
    expect(() => signWebhook(undefined, SECRET)).toThrow(ValidationError);
    expect(() => signWebhook(() => 1, SECRET)).toThrow(ValidationError);
    expect(() => signWebhook({ amount: 1n }, SECRET)).toThrow(ValidationError);
  });

  test('refuses an empty secret with missing_secret', () => {
    const error = (() => {
      try {
        signWebhook(CHARGE_SUCCESS, '');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('missing_secret');
  });

  // As the verifiers name it (3a4cf7a): a secrets file read without 'utf8' is a Buffer, not empty.
  test.each([
    ['a Buffer', Buffer.from(SECRET), /is an instance of Buffer, not a string: read it with readFileSync/],
    ['a number', 839201746501928, /is a number, not a string\.$/],
  ])('names a secret given as %s instead of calling it empty, never printing it', (_, secret, message) => {
    let error: unknown;
    try {
      signWebhook(CHARGE_SUCCESS, secret as never);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ reason: 'missing_secret', message: expect.stringMatching(message) });
    expect((error as Error).message).not.toMatch(/empty|839201746501/);
  });
});
