/**
 * A forward proxy and a CONNECT tunnel, written with `node:http` on loopback, that record what they
 * were asked and can demand credentials: the proxies a merchant's requests go through; and the
 * loopback service behind them (`https://localhost` with the test certificate, or plain HTTP).
 */
import { readFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { afterEach } from 'vitest';

import { paid } from '../helpers/mock-service.js';

/** The loopback service's certificate (for `NODE_EXTRA_CA_CERTS`) and key. */
export const CERT = fileURLToPath(new URL('../fixtures/localhost-cert.pem', import.meta.url));
const KEY = fileURLToPath(new URL('../fixtures/localhost-key.pem', import.meta.url));

// About the reference asked: verify refuses an answer about another one.
const envelope = (url: string | undefined): string =>
  JSON.stringify({
    status: 'success',
    message: 'Verification successful',
    data: { ...paid, reference: decodeURIComponent((url ?? '').split('/').pop() ?? '') },
  });

/** A running service behind the proxy. */
export interface TestService {
  url: string;
  /** The path of every request it was sent. */
  hits: string[];
  close(): Promise<void>;
}

/** A loopback service (`https://localhost` with `tls`) answering every request with a verify envelope. */
export async function startService(tls: boolean): Promise<TestService> {
  const hits: string[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    hits.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(envelope(req.url));
  };
  const server: Server = tls
    ? createHttpsServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, listener)
    : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https://localhost' : 'http://127.0.0.1'}:${port}`,
    hits,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** What a proxy was asked: `CONNECT host:port`, or `GET http://host/path` for a forwarded request. */
export interface ProxyLog {
  line: string;
  auth: string | undefined;
}

/** A running proxy. */
export interface TestProxy {
  url: string;
  port: number;
  seen: ProxyLog[];
  close(): Promise<void>;
}

/**
 * Starts a proxy; with `credentials` (`user:password`), anything else is answered 407. With `echo`,
 * a forwarded request is answered 502 with the headers the proxy received in the page, as some
 * proxies' error pages do.
 */
export async function startProxy(credentials?: string, echo = false): Promise<TestProxy> {
  const seen: ProxyLog[] = [];
  const expected =
    credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString('base64')}`;
  const allowed = (req: IncomingMessage): boolean => {
    const auth = req.headers['proxy-authorization'];
    seen.push({ line: `${req.method} ${req.url}`, auth });
    return expected === undefined || auth === expected;
  };
  const server = createServer((req, res) => {
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    if (echo) {
      res.writeHead(502, { 'content-type': 'text/html' }).end(`<pre>${JSON.stringify(req.headers)}</pre>`);
      return;
    }
    const target = new URL(req.url ?? '/');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client, head: Buffer) => {
    client.on('error', () => undefined);
    if (!allowed(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host === 'localhost' ? '127.0.0.1' : host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file: services and proxies started through it, and whatever is given to `later`, are
 * closed after each test. `service(tls)` and `proxy(credentials, echo)` are {@link startService}
 * and {@link startProxy}.
 */
export function loopback(): {
  service: (tls: boolean) => Promise<TestService>;
  proxy: (credentials?: string, echo?: boolean) => Promise<TestProxy>;
  later: (close: () => Promise<unknown>) => void;
} {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  const track = <T extends { close(): Promise<void> }>(started: T): T => {
    closers.push(() => started.close());
    return started;
  };
  return {
    service: async (tls) => track(await startService(tls)),
    proxy: async (credentials, echo = false) => track(await startProxy(credentials, echo)),
    later: (close) => void closers.push(close),
  };
}
