/**
 * A merchant's process behind a proxy, configured only by its environment (`NODE_USE_ENV_PROXY=1`,
 * `HTTPS_PROXY`, `NODE_EXTRA_CA_CERTS` for the loopback service's certificate): one verify call,
 * its outcome printed as one JSON line. Usage: client-child.ts <baseUrl>
 */
import { Wallet } from '../../src/index.js';

const wallet = new Wallet({ apiKey: 'sk_test_proxy_child', baseUrl: process.argv[2]!, maxRetries: 0 });
try {
  const charge = await wallet.charges.verify('order_1042');
  console.log(JSON.stringify({ ok: true, reference: charge.reference }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error) }));
} finally {
  await wallet.close();
}
