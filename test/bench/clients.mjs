// The clients compared per call. Each makes the same exchange with the loopback server: the same
// path, the same JSON body, the same headers a merchant would need (key, accept, user agent, a
// fresh UUID idempotency key on a POST), and reads the parsed JSON back.
import { randomUUID } from 'node:crypto';
import { importPeer } from '../proofs/peers/load.mjs';

const KEY = 'sk_test_bench_0123456789abcdef';
const REFERENCE = 'order_1042';
const VERIFY_PATH = `/v1/charges/verify/${REFERENCE}`;
const DISPATCH = {
  reference: REFERENCE,
  bankId: 'bank_01',
  authChannel: 'wallet_push',
  description: 'Order 1042',
};
const REFUND = { reference: REFERENCE, amount: 100_000, reason: 'One item out of stock' };
const HEADERS = { authorization: `Bearer ${KEY}`, accept: 'application/json', 'user-agent': 'bench/1.0' };

async function rawUndici(base, method, path, params) {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  const url = `${base}${path}`;
  const send =
    method === 'GET'
      ? () => request(url, { dispatcher, headers: HEADERS })
      : () =>
          request(url, {
            dispatcher,
            method,
            headers: { ...HEADERS, 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
            body: JSON.stringify(params),
          });
  return {
    call: async () => {
      const { statusCode, body } = await send();
      const parsed = JSON.parse(await body.text());
      if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
      return parsed.data;
    },
    close: () => dispatcher.close(),
  };
}

/**
 * The floor: undici's dispatch() with a minimal handler, which is the SDK's own transport primitive
 * (no Readable, no promise per chunk), collecting the body and parsing it. Whatever the SDK costs
 * beyond this is its own work: validation, scrubbing, outcome tracking, retries bookkeeping.
 */
async function rawDispatch(base, method, path, params, reuse = false) {
  const { Agent } = await import('undici');
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  const body = params === undefined ? undefined : JSON.stringify(params);
  const call = () =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let status = 0;
      const headers =
        method === 'GET'
          ? HEADERS
          : { ...HEADERS, 'content-type': 'application/json', 'x-idempotency-key': randomUUID() };
      dispatcher.dispatch(
        { origin: base, path, method, headers, body },
        {
          onRequestStart() {},
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (status !== 200) reject(new Error(`HTTP ${status}`));
            // `reuse`: answered once undici has freed the socket (a turn later), as the SDK's own
            // Agent does, so a caller's next call takes the same socket.
            else if (reuse) queueMicrotask(() => setImmediate(resolve, parsed.data));
            else resolve(parsed.data);
          },
          onResponseError(_controller, error) {
            reject(error);
          },
        },
      );
    });
  return { call, close: () => dispatcher.close() };
}

async function sdk(base, call) {
  const { Wallet } = await import('@wallet/node');
  const wallet = new Wallet({ apiKey: KEY, baseUrl: base });
  return { call: () => call(wallet), close: () => wallet.close() };
}

/** Variant name → factory of `{ call, close }` for a server at `base` (verifies take a reference). */
export const CLIENTS = {
  'undici dispatch GET': (base) => rawDispatch(base, 'GET', VERIFY_PATH),
  'undici dispatch POST dispatch': (base) => rawDispatch(base, 'POST', '/v1/charges/dispatch', DISPATCH),
  'undici dispatch POST refund': (base) => rawDispatch(base, 'POST', '/v1/refunds', REFUND),
  // The floor with the SDK's socket reuse (not in the bench's table: `per-call.mjs … reuse`).
  'undici dispatch GET, socket reused': (base) => rawDispatch(base, 'GET', VERIFY_PATH, undefined, true),
  'undici dispatch POST dispatch, socket reused': (base) =>
    rawDispatch(base, 'POST', '/v1/charges/dispatch', DISPATCH, true),
  'undici dispatch POST refund, socket reused': (base) =>
    rawDispatch(base, 'POST', '/v1/refunds', REFUND, true),
  'undici GET': (base, reference = REFERENCE) => rawUndici(base, 'GET', `/v1/charges/verify/${reference}`),
  'sdk charges.verify': (base, reference = REFERENCE) => sdk(base, (w) => w.charges.verify(reference)),
  'undici POST dispatch': (base) => rawUndici(base, 'POST', '/v1/charges/dispatch', DISPATCH),
  'sdk charges.dispatch': (base) => sdk(base, (w) => w.charges.dispatch(DISPATCH)),
  'undici POST refund': (base) => rawUndici(base, 'POST', '/v1/refunds', REFUND),
  'sdk refunds.create': (base) => sdk(base, (w) => w.refunds.create(REFUND)),
  'fetch GET': async (base) => ({
    call: async () => (await (await fetch(`${base}${VERIFY_PATH}`, { headers: HEADERS })).json()).data,
    close: async () => {},
  }),
  'stripe-node GET': async (base) => {
    const { default: Stripe } = await importPeer('stripe');
    const { hostname, port, protocol } = new URL(base);
    const stripe = new Stripe(KEY, {
      host: hostname,
      port: Number(port),
      protocol: protocol.slice(0, -1),
      maxNetworkRetries: 0,
      telemetry: false,
    });
    return { call: async () => (await stripe.rawRequest('GET', VERIFY_PATH)).data, close: async () => {} };
  },
  'openai-node GET': async (base) => {
    const { default: OpenAI } = await importPeer('openai');
    const openai = new OpenAI({ apiKey: KEY, baseURL: `${base}/v1`, maxRetries: 0 });
    return { call: async () => (await openai.get(VERIFY_PATH.slice(3))).data, close: async () => {} };
  },
};

/** Each measured client → the floor it is held against: raw dispatch() of the same exchange. */
export const BASELINE = {
  'sdk charges.verify': 'undici dispatch GET',
  'sdk charges.dispatch': 'undici dispatch POST dispatch',
  'sdk refunds.create': 'undici dispatch POST refund',
  'undici GET': 'undici dispatch GET',
  'fetch GET': 'undici dispatch GET',
  'stripe-node GET': 'undici dispatch GET',
  'openai-node GET': 'undici dispatch GET',
};

/** The merchant's alternatives (and undici's request()), measured in the full form only. */
export const PEERS = ['undici GET', 'fetch GET', 'stripe-node GET', 'openai-node GET'];

/** The peers that come from their own install (skipped, with a line, when it is missing). */
export const PEER_PACKAGE = { 'stripe-node GET': 'stripe', 'openai-node GET': 'openai' };
