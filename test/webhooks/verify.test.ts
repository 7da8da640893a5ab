import { runInNewContext } from 'node:vm';
import type { IncomingHttpHeaders } from 'node:http';

import { describe, expect, test } from 'vitest';

import { verifyWebhook, verifyWebhookAsync, WebhookVerificationError } from '../../src/webhooks.js';
import type {
  RawWebhookBody,
  WebhookSecret,
  WebhookSignatureHeader,
  WebhookVerificationReason,
} from '../../src/webhooks.js';
import { BODY, CHARGE_SUCCESS, OTHER_SECRET, SECRET, SIGNATURE, hmacHex, outcome } from './helpers.js';
import type { Outcome } from './helpers.js';

/** Both verifiers' outcomes for one input. */
async function both(
  body: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
): Promise<[Outcome, Outcome]> {
  return [
    await outcome(() => verifyWebhook(body, signature, secret)),
    await outcome(() => verifyWebhookAsync(body, signature, secret)),
  ];
}

/** Asserts both verifiers accept the input and return the same event. */
async function expectAccepted(
  body: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
): Promise<unknown> {
  const [sync, async] = await both(body, signature, secret);
  expect(sync).toEqual(async);
  if (!sync.ok) throw new Error(`refused with ${sync.reason}`);
  return sync.event;
}

/** Asserts both verifiers refuse the input with `reason`, returning no event. */
async function expectRefused(
  body: RawWebhookBody,
  signature: WebhookSignatureHeader,
  secret: WebhookSecret,
  reason: WebhookVerificationReason,
): Promise<void> {
  const [sync, async] = await both(body, signature, secret);
  expect(sync).toEqual({ ok: false, reason });
  expect(async).toEqual({ ok: false, reason });
}

describe('accepted deliveries', () => {
  test('matches a pinned HMAC-SHA512 vector of the raw body', async () => {
    // Pinned so a change of algorithm or key encoding cannot slip through with a helper changed alongside.
    expect(SIGNATURE).toBe(
      '7cb50eb704cad8f6d448b51b7e69ba6228d3eca99b42141d1caa594014c00658' +
        '0673c71abc06d1f102f21f79decd523c6c49876c6c43634eb5538b9cd7d5a823',
    );
    expect(await expectAccepted(BODY, SIGNATURE, SECRET)).toEqual(CHARGE_SUCCESS);
  });

  test.each([
    ['a string', BODY],
    ['a Buffer', Buffer.from(BODY)],
    ['a plain Uint8Array', new TextEncoder().encode(BODY)],
    ['an ArrayBuffer', new TextEncoder().encode(BODY).buffer],
  ])('takes the raw body as %s', async (_, body) => {
    expect(await expectAccepted(body, SIGNATURE, SECRET)).toEqual(CHARGE_SUCCESS);
  });

  test('takes bytes in shared memory', async () => {
    const shared = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(BODY)));
    shared.set(Buffer.from(BODY));
    expect(await expectAccepted(shared, SIGNATURE, SECRET)).toEqual(CHARGE_SUCCESS);
    expect(await expectAccepted(Buffer.from(shared.buffer), SIGNATURE, SECRET)).toEqual(CHARGE_SUCCESS);
  });

  test('takes a Uint8Array or ArrayBuffer from another realm (test runners, vm)', async () => {
    const bytes = [...Buffer.from(BODY)];
    const foreign = runInNewContext(`new Uint8Array(${JSON.stringify(bytes)})`) as Uint8Array;
    expect(foreign instanceof Uint8Array).toBe(false);
    expect(await expectAccepted(foreign, SIGNATURE, SECRET)).toEqual(CHARGE_SUCCESS);
    expect(await expectAccepted(foreign.buffer as ArrayBuffer, SIGNATURE, SECRET)).toEqual(CHARGE_SUCCESS);
  });

  test.each([
    ['uppercase hex', SIGNATURE.toUpperCase()],
    ['surrounding HTTP whitespace (SP and HTAB)', ` \t ${SIGNATURE}\t `],
    ['a header array with one value', [SIGNATURE]],
    ['a header array repeating the same value', [SIGNATURE, ` ${SIGNATURE}`]],
    // req.headers in Node and Headers.get() join a header sent twice; the contract's example passes it.
    ['the same value sent twice, as Node and Headers join it', `${SIGNATURE}, ${SIGNATURE}`],
    // headersDistinct keeps lines apart: a proxy that folded a repeat into one line sends it joined.
    ['a header array with the value joined in one line', [`${SIGNATURE}, ${SIGNATURE}`, SIGNATURE]],
  ])('takes the signature as %s', async (_, signature) => {
    expect(await expectAccepted(BODY, signature, SECRET)).toEqual(CHARGE_SUCCESS);
  });

  test('accepts any secret of a rotation, in either order', async () => {
    expect(await expectAccepted(BODY, SIGNATURE, [OTHER_SECRET, SECRET])).toEqual(CHARGE_SUCCESS);
    expect(await expectAccepted(BODY, SIGNATURE, [SECRET, OTHER_SECRET])).toEqual(CHARGE_SUCCESS);
    await expectRefused(BODY, SIGNATURE, [OTHER_SECRET, 'whsec_third'], 'signature_mismatch');
  });

  test('uses UTF-8 for non-ASCII bodies and secrets', async () => {
    const body = JSON.stringify({ event: 'note.created', data: { text: 'Ẹ ku àárọ̀ ₦ 🚀' } });
    const secret = 'sécret-₦-🔑';
    expect(await expectAccepted(body, hmacHex(body, secret), secret)).toEqual(JSON.parse(body));
    expect(await expectAccepted(Buffer.from(body), hmacHex(body, secret), secret)).toEqual(JSON.parse(body));
  });

  test('passes an unknown event kind through with its data and extra fields', async () => {
    const body = '{"event":"refund.processed","data":{"reference":"order_1042","extra":[1,2]},"id":"evt_1"}';
    expect(await expectAccepted(body, hmacHex(body, SECRET), SECRET)).toEqual({
      event: 'refund.processed',
      data: { reference: 'order_1042', extra: [1, 2] },
      id: 'evt_1',
    });
  });

  test('keeps fields the service adds to charge.success', async () => {
    const payload = { ...CHARGE_SUCCESS, data: { ...CHARGE_SUCCESS.data, fee: 10_000, currency: 'NGN' } };
    const body = JSON.stringify(payload);
    expect(await expectAccepted(body, hmacHex(body, SECRET), SECRET)).toEqual(payload);
  });
});

describe('forgeries: each refused with its reason, by both verifiers', () => {
  const tampered = BODY.replace('500000', '900000');
  const reserialized = JSON.stringify(JSON.parse(BODY), null, 2);
  const wrongSecret = hmacHex(BODY, OTHER_SECRET);
  const table: [string, RawWebhookBody, WebhookSignatureHeader, WebhookVerificationReason][] = [
    ['tampered body (amount raised)', tampered, SIGNATURE, 'signature_mismatch'],
    ['re-serialized body (same JSON, other spacing)', reserialized, SIGNATURE, 'signature_mismatch'],
    [
      're-serialized body (keys reordered)',
      JSON.stringify({ data: CHARGE_SUCCESS.data, event: 'charge.success' }),
      SIGNATURE,
      'signature_mismatch',
    ],
    ['body with a trailing newline', `${BODY}\n`, SIGNATURE, 'signature_mismatch'],
    ['wrong secret', BODY, wrongSecret, 'signature_mismatch'],
    ['signature of another body', BODY, hmacHex(tampered, SECRET), 'signature_mismatch'],
    ['truncated signature (127 digits)', BODY, SIGNATURE.slice(0, 127), 'malformed_signature'],
    ['truncated signature (SHA-256 length)', BODY, SIGNATURE.slice(0, 64), 'malformed_signature'],
    ['valid signature with hex appended', BODY, `${SIGNATURE}00`, 'malformed_signature'],
    ['valid signature with a letter appended', BODY, `${SIGNATURE}x`, 'malformed_signature'],
    ['valid signature with a scheme prefix', BODY, `sha512=${SIGNATURE}`, 'malformed_signature'],
    ['non-hex characters', BODY, 'z'.repeat(128), 'malformed_signature'],
    [
      'one non-hex character in a valid signature',
      BODY,
      `${SIGNATURE.slice(0, 10)}g${SIGNATURE.slice(11)}`,
      'malformed_signature',
    ],
    [
      'whitespace inside the signature',
      BODY,
      `${SIGNATURE.slice(0, 64)} ${SIGNATURE.slice(64)}`,
      'malformed_signature',
    ],
    [
      'base64 of the right digest',
      BODY,
      Buffer.from(SIGNATURE, 'hex').toString('base64'),
      'malformed_signature',
    ],
    ...(
      [
        ['CR LF', '\r\n'],
        ['U+00A0 (no-break space)', '\u00a0'],
        ['U+FEFF (byte order mark)', '\ufeff'],
        ['U+2028 (line separator)', '\u2028'],
        ['U+3000 (ideographic space)', '\u3000'],
      ] as const
    ).flatMap(([name, ws]): [string, string, string, WebhookVerificationReason][] => [
      [
        `a valid signature after ${name}, which is not HTTP whitespace`,
        BODY,
        `${ws}${SIGNATURE}`,
        'malformed_signature',
      ],
      [`a valid signature before ${name}`, BODY, `${SIGNATURE}${ws}`, 'malformed_signature'],
    ]),
    ['duplicate headers joined by Node', BODY, `${SIGNATURE}, ${wrongSecret}`, 'malformed_signature'],
    ['a valid signature and an empty repeat, joined', BODY, `${SIGNATURE},`, 'malformed_signature'],
    ['empty signature', BODY, '', 'missing_signature'],
    ['blank signature', BODY, '   ', 'missing_signature'],
    ['missing signature (undefined)', BODY, undefined, 'missing_signature'],
    ['missing signature (null)', BODY, null, 'missing_signature'],
    ['empty header array', BODY, [], 'missing_signature'],
    ['header array of two different values', BODY, [SIGNATURE, wrongSecret], 'malformed_signature'],
    ['header array of a valid and a malformed value', BODY, [SIGNATURE, 'abc'], 'malformed_signature'],
  ];

  test.each(table)('%s', async (_, body, signature, reason) => {
    await expectRefused(body, signature, SECRET, reason);
  });

  test('a refusal is a WebhookVerificationError that names the header, not the secret', () => {
    let caught: unknown;
    let event: unknown;
    try {
      event = verifyWebhook(BODY, wrongSecret, SECRET);
    } catch (error) {
      caught = error;
    }
    expect(event).toBeUndefined();
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    expect((caught as Error).message).toContain('x-wallet-signature');
    expect((caught as Error).message).not.toContain(SECRET);
  });
});

test('a header looked up with capitals in Node is refused with the lowercase lookup to use', () => {
  // Node lowercases header names, so this lookup is undefined on every genuine delivery.
  const headers: IncomingHttpHeaders = { 'x-wallet-signature': SIGNATURE };
  const refusal = (): unknown => verifyWebhook(BODY, headers['X-Wallet-Signature'], SECRET);
  expect(refusal).toThrow(expect.objectContaining({ reason: 'missing_signature' }));
  expect(refusal).toThrow("req.headers['x-wallet-signature']");
});

describe('secrets', () => {
  test.each([
    ['an empty string', ''],
    ['an empty array', []],
    ['an array with an empty entry', [SECRET, '']],
    ['undefined (an unset env var)', undefined as unknown as string],
    ['an array with undefined', [SECRET, undefined as unknown as string]],
  ])('refuses %s with missing_secret', async (_, secret) => {
    await expectRefused(BODY, SIGNATURE, secret, 'missing_secret');
  });

  test('an HMAC made with an empty key is refused, not accepted', async () => {
    // Anyone can compute that one, so it must never verify.
    await expectRefused(BODY, hmacHex(BODY, ''), '', 'missing_secret');
  });
});

describe('raw body', () => {
  test('refuses a parsed object with a message that says how to get the raw body', async () => {
    await expectRefused(JSON.parse(BODY) as RawWebhookBody, SIGNATURE, SECRET, 'raw_body_required');
    const error = await verifyWebhookAsync({} as RawWebhookBody, SIGNATURE, SECRET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as Error).message).toMatch(/express\.raw\(\{ type: 'application\/json' \}\)/);
    expect((error as Error).message).toContain('await request.text()');
  });

  test.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an array', [1, 2]],
    ['a DataView', new DataView(new ArrayBuffer(2))],
  ])('refuses %s with raw_body_required', async (_, body) => {
    await expectRefused(body as unknown as RawWebhookBody, SIGNATURE, SECRET, 'raw_body_required');
  });
});

describe('payload: parsed only after the signature matched', () => {
  const signed = (body: string | Uint8Array): [string | Uint8Array, string] => [body, hmacHex(body, SECRET)];
  const charge = (data: Record<string, unknown>): string =>
    JSON.stringify({ event: 'charge.success', data: { ...CHARGE_SUCCESS.data, ...data } });

  test.each([
    ['not JSON', signed('hello')],
    ['empty', signed('')],
    ['a JSON array', signed('[]')],
    ['JSON null', signed('null')],
    ['not UTF-8', signed(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))],
    ['a JSON object with a BOM', signed(`\uFEFF${BODY}`)],
    ['an event that is not a string', signed('{"event":1,"data":{}}')],
    ['an event with no data', signed('{"event":"charge.success"}')],
    ['data that is an array', signed('{"event":"refund.processed","data":[]}')],
    ['data that is null', signed('{"event":"refund.processed","data":null}')],
    ['charge.success with amount as a string', signed(charge({ amount: '500000' }))],
    ['charge.success with a fractional amount', signed(charge({ amount: 1.5 }))],
    ['charge.success with an unsafe amount', signed(charge({ amount: 2 ** 53 }))],
    ['charge.success with no reference', signed(charge({ reference: undefined }))],
    ['charge.success with a numeric reference', signed(charge({ reference: 1042 }))],
    ['charge.success with no customer', signed(charge({ customer: undefined }))],
    ['charge.success with customer as a string', signed(charge({ customer: '@ada' }))],
    ['charge.success with no customer.handle', signed(charge({ customer: { name: 'Ada' } }))],
  ])('refuses a signed body that is %s with invalid_payload', async (_, [body, signature]) => {
    await expectRefused(body, signature, SECRET, 'invalid_payload');
  });

  test('an unsigned body is refused for its signature before anything is parsed', async () => {
    await expectRefused('hello', hmacHex('hello', OTHER_SECRET), SECRET, 'signature_mismatch');
    await expectRefused('hello', undefined, SECRET, 'missing_signature');
  });

  test('checks the secret, then the body, then the signature', async () => {
    await expectRefused({} as RawWebhookBody, undefined, '', 'missing_secret');
    await expectRefused({} as RawWebhookBody, undefined, SECRET, 'raw_body_required');
  });
});

describe('every form of the signature header, one verdict and one message', () => {
  // A lone value, a list, a folded line, a non-string: read as one list since 303863d. Each form's
  // reason and message are what the merchant's logs show; both verifiers must say the same.
  const upper = SIGNATURE.toUpperCase();
  const missing = 'The x-wallet-signature header is missing or empty.';
  const notHex = 'The x-wallet-signature header is not 128 hex digits (HMAC-SHA512).';
  const times = (n: number): string => `The x-wallet-signature header came ${n} times with different values.`;
  const hint = " In Node, read it as req.headers['x-wallet-signature']: header names are lowercase there.";
  const refused: [string, unknown, WebhookVerificationReason, string][] = [
    ['undefined', undefined, 'missing_signature', missing + hint],
    ['null', null, 'missing_signature', missing],
    ['an empty list', [], 'missing_signature', missing],
    ['a list of undefined', [undefined], 'missing_signature', missing],
    ['a list of blanks', [' ', '\t'], 'missing_signature', missing],
    ['a lone comma', ' , ', 'missing_signature', missing],
    ['a value and an empty repeat', `${SIGNATURE},`, 'malformed_signature', times(2)],
    [
      'two lines, one folded with another value',
      [`${SIGNATURE}, ${'0'.repeat(128)}`, SIGNATURE],
      'malformed_signature',
      times(3),
    ],
    ['the same digits in two cases', [SIGNATURE, upper], 'malformed_signature', times(2)],
    ['a Buffer of the digits', Buffer.from(SIGNATURE), 'malformed_signature', notHex],
    ['a list of a Buffer', [Buffer.from(SIGNATURE)], 'malformed_signature', notHex],
    ['a number', 1, 'malformed_signature', notHex],
    ['a value with U+00A0', `${SIGNATURE}\u00a0`, 'malformed_signature', notHex],
  ];
  test.each(refused)('%s is refused', async (_, signature, reason, message) => {
    const header = signature as WebhookSignatureHeader;
    for (const verify of [verifyWebhook, verifyWebhookAsync]) {
      const error = await Promise.resolve()
        .then(() => verify(BODY, header, SECRET))
        .then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({ reason, message });
    }
  });

  const accepted: [string, unknown][] = [
    ['a lone value padded with HTTP whitespace', ` \t${SIGNATURE} `],
    ['upper-case digits', upper],
    ['a folded line of the same value', `${SIGNATURE}, ${SIGNATURE}`],
    ['a list of the same value, padded', [SIGNATURE, ` ${SIGNATURE}\t`]],
    ['a list holding a folded line of the same value', [`${SIGNATURE},${SIGNATURE}`, SIGNATURE]],
  ];
  test.each(accepted)('%s is accepted', async (_, signature) => {
    await expectAccepted(BODY, signature as WebhookSignatureHeader, SECRET);
  });
});
