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

async function sdk(base, call) {
  const { Wallet } = await import('@wallet/node');
  const wallet = new Wallet({ apiKey: KEY, baseUrl: base });
  return { call: () => call(wallet), close: () => wallet.close() };
}

/** Variant name → factory of `{ call, close }` for a server at `base` (verifies take a reference). */
export const CLIENTS = {
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

/** Each measured client → the raw request it is held against. */
export const BASELINE = {
  'sdk charges.verify': 'undici GET',
  'sdk charges.dispatch': 'undici POST dispatch',
  'sdk refunds.create': 'undici POST refund',
  'fetch GET': 'undici GET',
  'stripe-node GET': 'undici GET',
  'openai-node GET': 'undici GET',
};

/** The merchant's alternatives, measured in the full form only. */
export const PEERS = ['fetch GET', 'stripe-node GET', 'openai-node GET'];

/** The peers that come from their own install (skipped, with a line, when it is missing). */
export const PEER_PACKAGE = { 'stripe-node GET': 'stripe', 'openai-node GET': 'openai' };
