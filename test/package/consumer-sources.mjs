// The files of the merchant app that consumer.smoke.mjs installs the tarball into.

const check = `function check(ok, what) {
  if (!ok) throw new Error('failed: ' + what);
}`;

const cjs = `const assert = require('node:assert/strict');
const { Wallet, ValidationError, formatNaira, isWalletError, toKobo } = require('@wallet/node');
const { verifyWebhook, WebhookVerificationError } = require('@wallet/node/webhooks');
const { createSandbox, signWebhook } = require('@wallet/node/testing');

(async () => {
  const sandbox = createSandbox();
  const wallet = new Wallet({ apiKey: 'sk_test_cjs', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
  const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount: toKobo('5000'), reference: 'order_cjs' });
  await wallet.charges.dispatch({ reference: 'order_cjs', bankId: linkedBanks[0].bankId, authChannel: 'wallet_push' });
  await sandbox.authorize('order_cjs');
  assert.equal((await wallet.charges.verify('order_cjs')).status, 'SUCCESS');

  const { body, signature } = signWebhook({ event: 'charge.success', data: { reference: 'order_cjs', amount: 500000, customer: { handle: '@ada' } } }, 'whsec');
  assert.equal(verifyWebhook(body, signature, 'whsec').event, 'charge.success');
  assert.throws(() => verifyWebhook(body, signature, 'other'), WebhookVerificationError);
  assert.throws(() => new Wallet({ apiKey: 'pk_nope', baseUrl: 'http://127.0.0.1' }), (e) => e instanceof ValidationError && isWalletError(e));
  assert.equal(formatNaira(123456), '₦1,234.56');
  await wallet.close();
  await sandbox.close();
  console.log('cjs ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

const esm = `import { NotFoundError, Wallet, toKobo } from '@wallet/node';
import { verifyWebhookAsync } from '@wallet/node/webhooks';
import { signWebhook } from '@wallet/node/testing';
${check}

const baseUrl = process.env.SANDBOX_URL;
const wallet = new Wallet({ apiKey: 'sk_test_esm', baseUrl });
const reference = 'order_esm';
const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount: toKobo('5000'), reference });
await wallet.charges.dispatch({ reference, bankId: linkedBanks[0].bankId, authChannel: 'wallet_push' });
const approved = await fetch(baseUrl + '/_sandbox/charges/' + reference + '/authorize', { method: 'POST' });
check(approved.ok, 'the sandbox control route authorizes');
const tx = await wallet.charges.verify(reference);

const { body, signature } = signWebhook({ event: 'charge.success', data: { reference, amount: tx.amount, customer: { handle: '@ada' } } }, 'whsec');
const event = await verifyWebhookAsync(body, signature, 'whsec');
check(event.event === 'charge.success' && event.data.reference === reference, 'the webhook verifies');
const missing = await wallet.charges.verify('order_missing').catch((error) => error);
check(missing instanceof NotFoundError && missing.status === 404, 'an unknown reference is a NotFoundError');
await wallet.close();
console.log('esm ok: ' + tx.status + ' ' + tx.fee);
`;

/** Uses every entry's main exports with their types; compiled, never run. */
const typed = `import { NotFoundError, Wallet, formatNaira, isWalletError, toKobo, type ClientOptions, type Transaction } from '@wallet/node';
import { createNodeWebhookHandler, createWebhookHandler, verifyWebhook, type WebhookEvent } from '@wallet/node/webhooks';
import { createSandbox, signWebhook, type Sandbox } from '@wallet/node/testing';

export async function main(): Promise<string> {
  const sandbox: Sandbox = createSandbox();
  const options: ClientOptions = { apiKey: 'sk_test_ts', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher };
  const wallet = new Wallet(options);
  const { linkedBanks } = await wallet.charges.resolveHandle({ handle: '@ada', amount: toKobo('5000'), reference: 'r1' });
  const bank = linkedBanks[0];
  if (!bank) throw new Error('no bank');
  await wallet.charges.dispatch({ reference: 'r1', bankId: bank.bankId, authChannel: 'wallet_qr' });
  await sandbox.authorize('r1');
  const tx: Transaction = await wallet.charges.verify('r1');
  const { data, response } = await wallet.refunds.create({ reference: 'r1', amount: 100_000 }).withResponse();
  const signed = signWebhook({ event: 'charge.success', data: { reference: 'r1', amount: tx.amount, customer: { handle: '@ada' } } }, 'whsec');
  const event: WebhookEvent = verifyWebhook(signed.body, signed.signature, ['whsec', 'old']);
  const paid: number = event.event === 'charge.success' ? event.data.amount : 0;
  const onFetch: (request: Request) => Promise<Response> = createWebhookHandler({ secret: 'whsec', onEvent: () => undefined });
  const onNode = createNodeWebhookHandler({ secret: 'whsec', onEvent: async () => undefined });
  try {
    await wallet.charges.verify('nope');
  } catch (error) {
    if (error instanceof NotFoundError) return String(error.status);
    if (isWalletError(error)) return error.code;
  }
  return [tx.status, formatNaira(paid), data.status, response.status, typeof onFetch, typeof onNode].join(' ');
}
`;

/** A merchant's typo that the types must catch. */
export const WRONG_CALL = `import { Wallet } from '@wallet/node';

const wallet = new Wallet();
await wallet.charges.dispatch({ reference: 'r', bankId: 'b', authChannel: 'wallet_sms' });
`;

export const consumerFiles = {
  'cjs.cjs': cjs,
  'esm.mjs': esm,
  'app.mts': typed,
  'app.cts': typed,
  'app.ts': typed,
};

const base = (repo) => ({
  target: 'es2022',
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
  typeRoots: [`${repo}/node_modules/@types`],
});

/** One tsconfig per module resolution a merchant may use; `.mts` is imported, `.cts` required. */
export const TSCONFIGS = {
  node16: (repo) => ({
    compilerOptions: { ...base(repo), module: 'node16', moduleResolution: 'node16' },
    files: ['app.mts', 'app.cts'],
  }),
  nodenext: (repo) => ({
    compilerOptions: { ...base(repo), module: 'nodenext', moduleResolution: 'nodenext' },
    files: ['app.mts', 'app.cts'],
  }),
  bundler: (repo) => ({
    compilerOptions: { ...base(repo), module: 'preserve', moduleResolution: 'bundler' },
    files: ['app.ts'],
  }),
  // The legacy "node" resolution: subpaths resolve through typesVersions; esModuleInterop, as the
  // README asks and most such projects set.
  node10: (repo) => ({
    compilerOptions: { ...base(repo), module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true },
    files: ['app.ts'],
  }),
};
