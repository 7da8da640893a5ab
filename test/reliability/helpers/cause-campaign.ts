/**
 * Cause objects and aborted calls, as a merchant's custom fetch or dispatcher produces them: every
 * kind of value a cause chain can hold (Request, Headers, Map, buffers, class instances,
 * DOMException, revoked proxies, throwing getters, cycles, bigints), carrying the key in each form a
 * server or library echoes, attached three ways, on both transports. Each error is printed the
 * ways a merchant logs it; a throw is a crash, a form of the key on any surface is a leak.
 */
import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { inspect } from 'node:util';
import { Wallet } from '@wallet/node';
import { errorSurfaces, keyFormIn, SECRET_KEY } from './surfaces.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** The key as servers and libraries echo it. */
export const KEY_FORMS: readonly string[] = [
  SECRET_KEY,
  `Bearer ${SECRET_KEY}`,
  b64(SECRET_KEY),
  b64(`Bearer ${SECRET_KEY}`),
  b64(`merchant:${SECRET_KEY}`),
  Buffer.from(`x${SECRET_KEY}`).toString('base64url'),
  encodeURIComponent(SECRET_KEY),
  SECRET_KEY.replaceAll('_', '\\u005f'),
];

class Pool {
  constructor(readonly secret: string) {}
}

/** Values a cause may hold, each carrying `form`. */
export const CAUSE_KINDS: readonly [string, (form: string) => unknown][] = [
  [
    'Request with the header',
    (f) => new Request('https://api.wallet.test/v1/refunds', { headers: { authorization: f } }),
  ],
  [
    'Request with the key in its URL',
    (f) => new Request(`https://api.wallet.test/?key=${encodeURIComponent(f)}`),
  ],
  ['Headers', (f) => new Headers({ authorization: f })],
  ['Map', (f) => new Map([['authorization', f]])],
  ['Set', (f) => new Set([f])],
  ['Buffer', (f) => Buffer.from(f)],
  ['Uint8Array', (f) => new TextEncoder().encode(f)],
  ['URL', (f) => new URL(`https://api.wallet.test/?key=${encodeURIComponent(f)}`)],
  ['class instance', (f) => new Pool(f)],
  ['DOMException', (f) => new DOMException(f, 'AbortError')],
  ['Error with a code', (f) => Object.assign(new Error(f), { code: 'ECONNRESET', header: f })],
  ['AggregateError', (f) => new AggregateError([new Error(f)], f)],
  ['nested plain data', (f) => ({ deep: { deeper: [{ header: f }] } })],
  [
    'revoked Proxy',
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
  ],
  [
    'throwing getter',
    (f) =>
      Object.defineProperty({ header: f }, 'boom', {
        enumerable: true,
        get: () => {
          throw new Error(f);
        },
      }),
  ],
  [
    'cycle',
    (f) => {
      const o: Record<string, unknown> = { header: f };
      o.self = o;
      return o;
    },
  ],
  ['bigint', (f) => ({ n: 10n ** 30n, header: f })],
  ['function named with it', (f) => Object.defineProperty(() => undefined, 'name', { value: f })],
  ['symbol', (f) => Symbol(f)],
  [
    'error chain 20 deep',
    (f) => {
      let e: unknown = new Error(f);
      for (let i = 0; i < 20; i++) e = new Error(`level ${i}`, { cause: e });
      return e;
    },
  ],
];

/** How the failing fetch or dispatcher hands the value over. */
const ATTACH: readonly [string, (value: unknown) => unknown][] = [
  ['as the cause', (value) => new TypeError('fetch failed', { cause: value })],
  ['as a property', (value) => Object.assign(new TypeError('fetch failed'), { request: value })],
  ['thrown itself', (value) => value],
];

export interface CauseFigures {
  calls: number;
  crashes: number;
  leaks: number;
  firstProblem: string;
}

function printAll(error: unknown): string {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (chunk: Buffer) => (out += chunk.toString()));
  new Console({ stdout: stream, stderr: stream }).error(error);
  const cause = (error as { cause?: unknown }).cause;
  return [
    out,
    inspect(error, { depth: Infinity, showHidden: true }),
    JSON.stringify(error),
    JSON.stringify(cause, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
  ].join('\n');
}

function clients(thrown: () => unknown): Wallet[] {
  const fail = () => {
    throw thrown();
  };
  const dispatcher = {
    dispatch(
      _options: unknown,
      handler: { onResponseError(controller: null, error: unknown): void },
    ): boolean {
      queueMicrotask(() => handler.onResponseError(null, thrown()));
      return true;
    },
  };
  const common = { apiKey: SECRET_KEY, baseUrl: 'https://api.wallet.test', maxRetries: 0 };
  return [
    new Wallet({ ...common, fetch: () => Promise.resolve().then(fail) }),
    new Wallet({ ...common, dispatcher: dispatcher }),
  ];
}

/** Every kind × form × attachment × transport, `rounds` times (a round past the first nests kinds). */
export async function causeCampaign(rounds: number): Promise<CauseFigures> {
  const figures: CauseFigures = { calls: 0, crashes: 0, leaks: 0, firstProblem: '' };
  const problem = (what: string): void => {
    if (figures.firstProblem === '') figures.firstProblem = what;
  };
  for (let round = 0; round < rounds; round++) {
    for (const [kind, make] of CAUSE_KINDS) {
      for (const form of KEY_FORMS) {
        for (const [how, attach] of ATTACH) {
          // Later rounds wrap the value in another kind, so chains mix them.
          const [, outer] = CAUSE_KINDS[(round * 7 + kind.length) % CAUSE_KINDS.length]!;
          const value = () => (round === 0 ? make(form) : { inner: make(form), outer: outer(form) });
          for (const wallet of clients(() => attach(value()))) {
            figures.calls++;
            const error = await wallet.charges.verify('order_1042').catch((e: unknown) => e);
            const label = `${kind} ${how}, form ${JSON.stringify(form.slice(0, 12))}`;
            let text: string;
            try {
              text = printAll(error);
            } catch (crash) {
              figures.crashes++;
              problem(`${label}: printing threw ${String(crash)}`);
              continue;
            }
            for (const surface of [{ where: 'printed', text }, ...errorSurfaces(error, label)]) {
              const found = keyFormIn(surface.text);
              if (found === undefined) continue;
              figures.leaks++;
              problem(`${label}: ${found} in ${surface.where}`);
              break;
            }
          }
        }
      }
    }
  }
  return figures;
}
