/**
 * Loopback servers that fail the doctor's checks one way each: a status, a skewed clock, TLS 1.2
 * only. Each answers verify like the service does (the error envelope).
 */
import {
  createServer as createHttp,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttps } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const CERT = fileURLToPath(new URL('../../../../test/fixtures/localhost-cert.pem', import.meta.url));
const KEY = fileURLToPath(new URL('../../../../test/fixtures/localhost-key.pem', import.meta.url));

/** A server under test, and how to stop it. */
export interface Loopback {
  url: string;
  close(): Promise<void>;
}

function answer(status: number, date?: string) {
  return (_req: IncomingMessage, res: ServerResponse): void => {
    if (date !== undefined) res.setHeader('date', date);
    res.writeHead(status, { 'content-type': 'application/json' });
    const message = {
      401: 'Invalid API key.',
      403: 'IP address not allowed.',
      404: 'No charge with that reference.',
    }[status];
    res.end(JSON.stringify({ status: 'error', message: message ?? 'error' }));
  };
}

async function started(server: Server, scheme: string, host: string): Promise<Loopback> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://${host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An http server answering every request with `status`, its Date header shifted by `skewMs`. */
export function statusServer(status: number, skewMs = 0): Promise<Loopback> {
  const date = skewMs === 0 ? undefined : new Date(Date.now() + skewMs).toUTCString();
  return started(createHttp(answer(status, date)), 'http', '127.0.0.1');
}

/** An https server (the fixture certificate, for `localhost`) that speaks at most TLS 1.2. */
export function tls12Server(): Promise<Loopback> {
  const server = createHttps(
    { cert: readFileSync(CERT), key: readFileSync(KEY), maxVersion: 'TLSv1.2' },
    answer(404),
  );
  return started(server, 'https', 'localhost');
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<string> {
  const server = await statusServer(404);
  await server.close();
  return server.url;
}
