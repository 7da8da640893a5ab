import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, Wallet } from '@wallet/node';

// A self-signed certificate for localhost, made for these tests only and trusted by nothing.
const cert = readFileSync(new URL('./fixtures/localhost-cert.pem', import.meta.url));
const key = readFileSync(new URL('./fixtures/localhost-key.pem', import.meta.url));

let server: https.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function tlsServer(options: https.ServerOptions): Promise<string> {
  server = https.createServer({ cert, key, ...options }, (_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `https://localhost:${(server.address() as AddressInfo).port}`;
}

async function causeOfFailure(baseUrl: string): Promise<string> {
  const wallet = new Wallet({ apiKey: 'sk_test_tls', baseUrl, maxRetries: 0, timeout: 5_000 });
  const error = await wallet.charges.verify('r').catch((e: unknown) => e);
  await wallet.close();
  expect(error).toBeInstanceOf(ConnectionError);
  return String(((error as ConnectionError).cause as { code?: string }).code);
}

describe('the client’s own connections', () => {
  it('refuse a server that offers nothing newer than TLS 1.2', async () => {
    const url = await tlsServer({ maxVersion: 'TLSv1.2' });
    expect(await causeOfFailure(url)).toMatch(/PROTOCOL|VERSION/);
  });

  it('speak TLS 1.3 and still verify the certificate (a self-signed one is refused)', async () => {
    const url = await tlsServer({ minVersion: 'TLSv1.3' });
    expect(await causeOfFailure(url)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});
