/**
 * Forged deliveries derived from one genuine delivery, from a seeded RNG, and an oracle that says
 * independently of the SDK which of them a correct verifier must refuse: any delivery whose body is
 * not the signed bytes, or whose header is not the genuine signature (either case, only SP/HTAB
 * around it, one value or the same value repeated).
 */
import { createHash, createHmac } from 'node:crypto';

import { mulberry32 } from '../../src/testing/endpoints/faults.js';
import { BODY, OTHER_SECRET, SECRET, SIGNATURE, hmacHex } from './helpers.js';

/** A delivery as it reaches a verifier. */
export interface Delivery {
  /** Which mutation made it, for the report. */
  kind: string;
  body: Uint8Array;
  signature: string | string[] | undefined;
}

const GENUINE = Buffer.from(BODY);
const HEX = '0123456789abcdefABCDEF';
const NOT_HTTP_WHITESPACE = [
  '\u00a0',
  '\ufeff',
  '\u2028',
  '\u2029',
  '\u3000',
  '\v',
  '\f',
  '\r',
  '\n',
  '\u0085',
  '\u200b',
];
const JUNK = [...NOT_HTTP_WHITESPACE, ' ', '\t', 'x', '0', 'g', '=', ',', '"', '\0'];

const trimHttp = (s: string): string => s.replace(/^[ \t]+|[ \t]+$/g, '');

/** True when a correct verifier must accept this delivery. Written without the SDK. */
export function isGenuine({ body, signature }: Delivery): boolean {
  if (!Buffer.from(body).equals(GENUINE)) return false;
  const values = (Array.isArray(signature) ? signature : [signature]).map((v) =>
    typeof v === 'string' ? trimHttp(v) : v,
  );
  if (values.length === 0 || values.some((v) => v !== values[0])) return false;
  const value = values[0];
  return typeof value === 'string' && value.length === 128 && value.toLowerCase() === SIGNATURE;
}

/**
 * `count` deliveries a correct verifier must refuse, derived from the genuine one. Candidates the
 * oracle calls genuine (a case change of the real signature, say) are drawn again.
 */
export function forgeries(seed: number, count: number): Delivery[] {
  const random = mulberry32(seed);
  const int = (n: number): number => Math.floor(random() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const randomCase = (s: string): string =>
    Array.from(s, (c) => (random() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
  const otherDigit = (c: string): string => {
    let d = c;
    while (d.toLowerCase() === c.toLowerCase()) d = pick([...HEX]);
    return d;
  };
  const wrongSignature = (): string => {
    const at = int(128);
    return SIGNATURE.slice(0, at) + otherDigit(SIGNATURE[at]!) + SIGNATURE.slice(at + 1);
  };
  const secretVariants = [
    `${SECRET} `,
    `${SECRET}\n`,
    ` ${SECRET}`,
    SECRET.toUpperCase(),
    SECRET.slice(0, -1),
    `${SECRET}\u00a0`,
    OTHER_SECRET,
    'x',
    SECRET.normalize('NFD') + '\u0301',
  ];
  const mutations: [string, () => Omit<Delivery, 'kind'>][] = [
    [
      'body bit flip',
      () => {
        const body = Buffer.from(GENUINE);
        for (let i = 0, n = 1 + int(3); i < n; i++) body[int(body.length)]! ^= 1 << int(8);
        return { body, signature: randomCase(SIGNATURE) };
      },
    ],
    ['body truncated', () => ({ body: GENUINE.subarray(0, int(GENUINE.length)), signature: SIGNATURE })],
    [
      'body extended',
      () => ({
        body: Buffer.concat([GENUINE, Buffer.from(pick([' ', '\n', '\r\n', '\0', '}', ' {}', '\ufeff']))]),
        signature: SIGNATURE,
      }),
    ],
    [
      'body with a byte inserted or removed',
      () => {
        const at = int(GENUINE.length);
        const body =
          random() < 0.5
            ? Buffer.concat([GENUINE.subarray(0, at), Buffer.from([int(256)]), GENUINE.subarray(at)])
            : Buffer.concat([GENUINE.subarray(0, at), GENUINE.subarray(at + 1)]);
        return { body, signature: SIGNATURE };
      },
    ],
    [
      'body re-serialized',
      () => ({
        body: Buffer.from(JSON.stringify(JSON.parse(BODY), null, 1 + int(3))),
        signature: SIGNATURE,
      }),
    ],
    [
      'signature digit changed (any case)',
      () => ({ body: GENUINE, signature: randomCase(wrongSignature()) }),
    ],
    ['signature truncated', () => ({ body: GENUINE, signature: randomCase(SIGNATURE.slice(0, int(128))) })],
    [
      'signature extended',
      () => ({
        body: GENUINE,
        signature:
          random() < 0.5
            ? SIGNATURE + pick(JUNK) + (random() < 0.5 ? pick([...HEX]) : '')
            : pick(JUNK) + SIGNATURE,
      }),
    ],
    [
      'signature inside non-HTTP whitespace',
      () => {
        const ws = pick(NOT_HTTP_WHITESPACE);
        const where = int(3);
        return {
          body: GENUINE,
          signature: where === 0 ? ws + SIGNATURE : where === 1 ? SIGNATURE + ws : ws + SIGNATURE + ws,
        };
      },
    ],
    [
      'signature with a character replaced by a look-alike',
      () => {
        const at = int(128);
        return {
          body: GENUINE,
          signature:
            SIGNATURE.slice(0, at) + pick(['\uff10', '\u0430', 'O', 'l', ' ']) + SIGNATURE.slice(at + 1),
        };
      },
    ],
    [
      'signature of a secret variant',
      () => ({ body: GENUINE, signature: randomCase(hmacHex(GENUINE, pick(secretVariants))) }),
    ],
    [
      'signature of the wrong construction',
      () => {
        const forms = [
          createHash('sha512').update(GENUINE).digest('hex'),
          createHmac('sha256', SECRET).update(GENUINE).digest('hex').repeat(2),
          createHmac('sha512', SECRET).update(GENUINE).digest('base64'),
          createHmac('sha512', SECRET).update(BODY.slice(0, -1)).digest('hex'),
          `sha512=${SIGNATURE}`,
          '0'.repeat(128),
        ];
        return { body: GENUINE, signature: pick(forms) };
      },
    ],
    [
      'header array with a different value',
      () => {
        const other = pick([wrongSignature(), '', 'x', `${SIGNATURE}\u00a0`, hmacHex(GENUINE, OTHER_SECRET)]);
        return { body: GENUINE, signature: random() < 0.5 ? [SIGNATURE, other] : [other, SIGNATURE] };
      },
    ],
    ['header array of forgeries', () => ({ body: GENUINE, signature: [wrongSignature(), wrongSignature()] })],
    [
      'no signature',
      () => ({
        body: GENUINE,
        signature: pick<string | string[] | undefined>([undefined, '', ' ', '\t', []]),
      }),
    ],
    [
      'tampered body with its own unkeyed signature',
      () => {
        const body = Buffer.from(BODY.replace('500000', String(1 + int(9_999_999))));
        return { body, signature: createHash('sha512').update(body).digest('hex') };
      },
    ],
  ];
  const out: Delivery[] = [];
  while (out.length < count) {
    const [kind, make] = pick(mutations);
    const delivery = { kind, ...make() };
    if (!isGenuine(delivery)) out.push(delivery);
  }
  return out;
}

/** True when the header value reaches a Fetch handler unchanged (ByteString, no OWS stripped). */
export function fitsInHeaders(signature: Delivery['signature']): boolean {
  const values = Array.isArray(signature) ? signature : signature === undefined ? [] : [signature];
  try {
    const headers = new Headers();
    for (const v of values) headers.append('x-wallet-signature', v);
    return values.length <= 1 ? (headers.get('x-wallet-signature') ?? undefined) === values[0] : true;
  } catch {
    return false;
  }
}
