/**
 * Serving the sandbox over HTTP on loopback, for merchants' apps in other processes and other
 * languages. Each request is turned into a Fetch `Request`, answered by the one state machine, and
 * the `Response` is written back; the socket's address is the caller's IP for the allow list.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { SandboxRequestContext } from './router.js';

/** Where and how `sandbox.listen()` serves. */
export interface SandboxListenOptions {
  /**
   * TCP port; 0 picks a free one.
   * @default 0
   */
  port?: number;
  /**
   * Address to bind. Keep it on loopback: the sandbox accepts any test key.
   * @default '127.0.0.1'
   */
  host?: string;
}

/** A running loopback server. */
export interface SandboxServer {
  /** Base URL to give the SDK, for example `http://127.0.0.1:49152`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stops listening and drops open connections; resolves once the port is free. A property, so it can be destructured. */
  readonly close: () => Promise<void>;
}

type Handler = (request: Request, context?: SandboxRequestContext) => Promise<Response>;

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value);
  }
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  return new Request(new URL(req.url ?? '/', origin), { method, headers, ...(body ? { body } : {}) });
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

/** Starts a loopback server over a Fetch handler. @internal */
export async function startServer(
  handle: Handler,
  options: SandboxListenOptions = {},
): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  let origin = '';
  const server = createServer((req, res) => {
    const serve = async (): Promise<void> => {
      const request = await toRequest(req, origin);
      const clientIp = req.socket.remoteAddress;
      await writeResponse(res, await handle(request, clientIp === undefined ? {} : { clientIp }));
    };
    serve().catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ status: 'error', message: `The sandbox failed: ${String(error)}` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: origin,
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
