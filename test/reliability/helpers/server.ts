/**
 * A real HTTP server on 127.0.0.1 for the reliability suite. It reads each request whole, hands it
 * to `handler` with its socket (so a fault can drop the connection), and counts what only the
 * server side can see: requests, open sockets and the most ever open at once.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the server received it. */
export interface Arrived {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Header names and values exactly as sent, in order (duplicates visible). */
  rawHeaders: string[];
  body: string;
  socket: Socket;
}

export type Handler = (req: Arrived, res: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  /** Every request received, in order (empty when started with `keep: false`). */
  readonly arrived: Arrived[];
  /** How many requests arrived. */
  requests(): number;
  /** Sockets open now, the most open at once, and all ever accepted. */
  sockets(): { open: number; peak: number; total: number };
  close(): Promise<void>;
}

/** `keep: false` counts requests without keeping them, for load runs that measure the heap. */
export async function startServer(handler: Handler, { keep = true } = {}): Promise<TestServer> {
  const arrived: Arrived[] = [];
  let requests = 0;
  const open = new Set<Socket>();
  let peak = 0;
  let total = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const got: Arrived = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
        socket: req.socket,
      };
      requests++;
      if (keep) arrived.push(got);
      Promise.resolve(handler(got, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(599);
        res.end(String(error));
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    open.add(socket);
    total++;
    peak = Math.max(peak, open.size);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    requests: () => requests,
    sockets: () => ({ open: open.size, peak, total }),
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers with a JSON body. */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}
