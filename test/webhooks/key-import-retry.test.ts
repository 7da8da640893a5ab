// A Web Crypto key import that fails once (a runtime hiccup, a worker's memory pressure) must not
// poison the secret: verifyWebhookAsync keeps each secret's key, and a kept rejection would refuse
// every genuine delivery signed with that secret until the process restarts.
import { afterEach, describe, expect, test, vi } from 'vitest';

import { verifyWebhookAsync } from '../../src/webhooks.js';
import { BODY, hmacHex } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('verifyWebhookAsync after a failed key import', () => {
  test('the next delivery with the same secret imports the key again and is accepted', async () => {
    const secret = 'whsec_test_import_fails_once';
    const signature = hmacHex(BODY, secret);
    const importKey = vi
      .spyOn(globalThis.crypto.subtle, 'importKey')
      .mockRejectedValueOnce(new Error('key import failed'));

    await expect(verifyWebhookAsync(BODY, signature, secret)).rejects.toThrow('key import failed');

    const event = await verifyWebhookAsync(BODY, signature, secret);
    expect(event.event).toBe('charge.success');
    expect(importKey).toHaveBeenCalledTimes(2);
  });

  test('a key that imported is kept: a second delivery does not import again', async () => {
    const secret = 'whsec_test_import_kept';
    const signature = hmacHex(BODY, secret);
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');

    await verifyWebhookAsync(BODY, signature, secret);
    await verifyWebhookAsync(BODY, signature, secret);
    expect(importKey).toHaveBeenCalledTimes(1);
  });
});
