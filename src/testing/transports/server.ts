/** The sandbox over HTTP on loopback, for apps in other processes and languages. */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { SandboxLogger } from '../endpoints/log.js';
import type { Handle } from '../endpoints/router.js';
import { failure } from '../endpoints/wire.js';

/** Where and how `sandbox.listen()` serves. */
export interface SandboxListenOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Address to bind. Keep it on loopback: the sandbox accepts any test key. @default '127.0.0.1' */
  host?: string;
  /** How long a client may take to send a whole request, ms; a slower one gets a 408. @default 30000 */
  requestTimeoutMs?: number;
  /**
   * Where to log a line per request and webhook delivery attempt while this server runs.
   * @default undefined (only the sandbox's own `logger`, if any)
   *
   * @example
   * ```ts
   * const { url } = await sandbox.listen({ port: 4010, logger: console });
   * ```
   */
  logger?: SandboxLogger;
}

/** A running loopback server. */
export interface SandboxServer {
  /** Base URL to give the SDK, for example `http://127.0.0.1:49152` (with the `baseUrl` option's path). */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stops listening and drops open connections; resolves once the port is free. Can be destructured. */
  readonly close: () => Promise<void>;
}

// How long the rest of a refused body is drained before the cut: unread bytes make the kernel reset the 413.
const LINGER_MS = 2000;

/** A request body streamed from the socket, and a way to drop whatever of it is not read yet. */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; drop(): void } {
  let open = true;
  const drop = (): void => {
    open = false;
    req.resume();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on('data', (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => open && controller.close());
        req.once('error', (error) => open && controller.error(error));
      },
      pull() {
        req.resume();
      },
      cancel: drop,
    },
    { highWaterMark: 1, size: () => 1 },
  );
  return { stream, drop };
}

// One request: carried to the handler as a Fetch `Request`, its `Response` written back.
async function serve(
  handle: Handle,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct))
    for (const value of values ?? []) headers.append(name, value);
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : bodyStream(req);
  // `duplex` is required by undici's Request for a streamed body; Node's RequestInit type lacks it.
  const init = { method, headers, ...(body === undefined ? {} : { body: body.stream, duplex: 'half' }) };
  const clientIp = req.socket.remoteAddress;
  const request = new Request(new URL(req.url ?? '/', origin), init as RequestInit);
  const response = await handle(request, clientIp === undefined ? {} : { clientIp });
  // An injected reset: the connection drops with no answer at all.
  if (response.type === 'error') return void req.socket.destroy();
  const bytes = Buffer.from(await response.arrayBuffer());
  const unread = !req.complete;
  res.writeHead(response.status, {
    ...Object.fromEntries(response.headers),
    ...(unread ? { connection: 'close' } : {}),
    'content-length': String(bytes.length),
  });
  res.end(bytes);
  if (unread) {
    // Answered before the body was read (a 413, a 401): the rest is read and dropped, never kept.
    body?.drop();
    setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
  }
}

/** Starts a loopback server over a Fetch handler; `basePath` is added to its URL. @internal */
export async function startServer(
  handle: Handle,
  options: SandboxListenOptions = {},
  basePath = '',
): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  let origin = '';
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 10_000),
      // Node checks the timeouts above at this interval; its default (30 s) would double them.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, requestTimeout / 4)),
    },
    (req, res) => {
      serve(handle, req, res, origin).catch((error: unknown) => {
        if (res.headersSent) return res.destroy();
        const { status, body } = failure(500, `The sandbox failed: ${String(error)}`);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
        res.end(body);
      });
    },
  );
  server.listen(options.port ?? 0, host);
  await once(server, 'listening'); // rejects on 'error' (a port in use)
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${basePath}`,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
