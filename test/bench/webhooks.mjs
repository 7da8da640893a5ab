// Webhook verification against the raw platform calls a merchant would otherwise write, on one
// 105-byte delivery: verifyWebhook against createHmac + timingSafeEqual + JSON.parse (the body as
// the Buffer express.raw() gives), verifyWebhookAsync against Web Crypto importKey + verify +
// JSON.parse (the body as the string request.text() gives). CPU per verify, rounds interleaved.
// Usage (by the bench): fork('webhooks.mjs', [rounds, syncOpsPerRound]) → { variant: [µs per op…] }
// (Web Crypto is about ten times slower, so the async pair runs a tenth as many.)
import { createHmac, timingSafeEqual } from 'node:crypto';
import { verifyWebhook, verifyWebhookAsync, signWebhook } from '@wallet/node/webhooks';

const [rounds, ops] = process.argv.slice(2).map(Number);
const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const event = {
  event: 'charge.success',
  data: { reference: 'order_1042', amount: 500000, customer: { handle: '@ada' } },
};
const { body, signature } = signWebhook(event, SECRET);
const buffer = Buffer.from(body);
const subtle = globalThis.crypto.subtle;
const encoder = new TextEncoder();

function rawHmac() {
  const expected = createHmac('sha512', SECRET).update(buffer).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(expected, given)) throw new Error('mismatch');
  return JSON.parse(buffer.toString('utf8'));
}

async function rawWebCrypto() {
  const key = await subtle.importKey(
    'raw',
    encoder.encode(SECRET),
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['verify'],
  );
  if (!(await subtle.verify('HMAC', key, Buffer.from(signature, 'hex'), encoder.encode(body))))
    throw new Error('mismatch');
  return JSON.parse(body);
}

// Sync variants run in a plain loop: an await per call would add the same microtask to both and
// pull their ratio towards 1.
const VARIANTS = {
  'raw createHmac': [false, rawHmac],
  verifyWebhook: [false, () => verifyWebhook(buffer, signature, SECRET)],
  'raw Web Crypto': [true, rawWebCrypto],
  verifyWebhookAsync: [true, () => verifyWebhookAsync(body, signature, SECRET)],
};

async function measure([isAsync, run], syncOps) {
  const n = isAsync ? Math.ceil(syncOps / 10) : syncOps;
  const start = process.cpuUsage();
  if (isAsync) for (let i = 0; i < n; i++) await run();
  else for (let i = 0; i < n; i++) run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const results = Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]));
for (const run of Object.values(VARIANTS)) await measure(run, ops); // warm up
for (let r = 0; r < rounds; r++) {
  for (const [name, run] of Object.entries(VARIANTS)) results[name].push(await measure(run, ops));
}
process.send(results);
