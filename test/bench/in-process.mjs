// The SDK's own CPU per call, with the network taken out: each call against a fake undici
// dispatcher that answers from a microtask with the loopback server's headers and bodies, beside a
// minimal dispatch handler over the same fake (what raw dispatch() costs without a socket).
// The difference is the SDK's work alone (validation, scrubbing, outcome tracking, promises), the
// figure to A/B a change by; the per-call bench (per-call.mjs) then says what a merchant gets.
// One process, 32 calls in flight, medians of 5 rounds; needs `npm run build`.
// Usage: node test/bench/in-process.mjs [calls=200000] [cases, comma-separated]
const N = Number(process.argv[2] ?? 200000);
const only = process.argv[3];
const { Wallet } = await import('@wallet/node');
const { randomUUID } = await import('node:crypto');
const answers = await import('./bodies.mjs');
const BODIES = {
  '/v1/charges/verify/order_1042': Buffer.from(answers.TRANSACTION),
  '/v1/charges/dispatch': Buffer.from(answers.DISPATCH),
  '/v1/refunds': Buffer.from(answers.REFUND),
};
const fake = {
  dispatch(opts, handler) {
    const body = BODIES[opts.path];
    queueMicrotask(() => {
      const controller = { abort() {} };
      handler.onRequestStart(controller, {});
      const headers = {
        'content-type': 'application/json',
        'content-length': String(body.length),
        date: 'Sat, 21 Nov 2026 10:00:00 GMT',
        connection: 'keep-alive',
        'keep-alive': 'timeout=60',
      };
      handler.onResponseStart(controller, 200, headers, 'OK');
      handler.onResponseData(controller, body);
      handler.onResponseEnd(controller, {});
    });
    return true;
  },
  on() {
    return this;
  },
  once() {
    return this;
  },
  off() {
    return this;
  },
  close: async () => {},
  destroy: async () => {},
};
const KEY = 'sk_test_bench_0123456789abcdef';
const HEADERS = { authorization: `Bearer ${KEY}`, accept: 'application/json', 'user-agent': 'bench/1.0' };
function floor(method, path, params) {
  const body = params === undefined ? undefined : JSON.stringify(params);
  return () =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let status = 0;
      const headers =
        method === 'GET'
          ? HEADERS
          : { ...HEADERS, 'content-type': 'application/json', 'x-idempotency-key': randomUUID() };
      fake.dispatch(
        { origin: 'http://x', path, method, headers, body },
        {
          onRequestStart() {},
          onResponseStart(_c, s) {
            status = s;
          },
          onResponseData(_c, c) {
            chunks.push(c);
          },
          onResponseEnd() {
            const p = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (status !== 200) reject(new Error(`HTTP ${status}`));
            else resolve(p.data);
          },
          onResponseError: (_c, e) => reject(e),
        },
      );
    });
}
const wallet = new Wallet({ apiKey: KEY, baseUrl: 'http://127.0.0.1:1', dispatcher: fake });
const DISPATCH = {
  reference: 'order_1042',
  bankId: 'bank_01',
  authChannel: 'wallet_push',
  description: 'Order 1042',
};
const REFUND = { reference: 'order_1042', amount: 100_000, reason: 'One item out of stock' };
const cases = {
  'floor GET': floor('GET', '/v1/charges/verify/order_1042'),
  verify: () => wallet.charges.verify('order_1042'),
  'floor POST dispatch': floor('POST', '/v1/charges/dispatch', DISPATCH),
  dispatch: () => wallet.charges.dispatch(DISPATCH),
  'floor POST refund': floor('POST', '/v1/refunds', REFUND),
  refund: () => wallet.refunds.create(REFUND),
};
async function run(fn, n) {
  let left = n;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (left-- > 0) await fn();
    }),
  );
}
const names = only ? only.split(',') : Object.keys(cases);
for (const name of names) await run(cases[name], 30000);
const res = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < 5; r++)
  for (const name of names) {
    const c = process.cpuUsage();
    await run(cases[name], N / 5);
    const u = process.cpuUsage(c);
    res[name].push((u.user + u.system) / (N / 5));
  }
const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const name of names) console.log(name.padEnd(22), med(res[name]).toFixed(2), 'µs');
