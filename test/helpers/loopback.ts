import http from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import { Wallet, type ClientOptions } from '@wallet/node';
import { TEST_KEY } from './mock-service.js';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Names and values as they came on the wire, repeats included. */
  rawHeaders: string[];
  body: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number, body: string) => void;

/**
 * A real HTTP server on 127.0.0.1 for what only sockets show: resets, stalls, slow bodies. Each
 * request is answered by `handler` with its 1-based number.
 */
export async function loopback(handler: Handler) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
      });
      handler(req, res, received.length, body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { ...serving(url, server, sockets), received };
}

/**
 * Clients of a test server at `url`, and its close(): the clients first, then every socket still
 * open, then the server.
 */
export function serving(url: string, server: Server, sockets: Set<Socket>) {
  const clients: Wallet[] = [];
  return {
    url,
    wallet(options: ClientOptions = {}) {
      const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: url, ...options });
      clients.push(wallet);
      return wallet;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
