/**
 * A lossy, lying network of our own: a loopback HTTP proxy in front of a listening sandbox that,
 * per request and always after the sandbox acted, can pass the answer, drop it (the connection is
 * destroyed), hold it until the client gives up (its timeout), answer another status, or rewrite its
 * `data`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';

/** What the proxy does with one answer. */
export type Action =
  | { kind: 'pass' }
  | { kind: 'drop' }
  | { kind: 'hold' }
  | { kind: 'status'; status: number }
  | { kind: 'rewrite'; edit: (data: Record<string, unknown>) => void };

/** A request as the plan sees it. */
export interface Seen {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

export interface Proxy {
  url: string;
  /** Decides each answer; `pass` unless changed. */
  plan: (request: Seen) => Action;
  close(): Promise<void>;
}

const HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'content-encoding', 'keep-alive']);

async function read(request: IncomingMessage): Promise<string> {
  let text = '';
  request.setEncoding('utf8');
  for await (const chunk of request) text += chunk as string;
  return text;
}

export async function startProxy(upstream: string): Promise<Proxy> {
  const proxy: Proxy = { url: '', plan: () => ({ kind: 'pass' }), close: async () => undefined };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await read(request);
      const path = request.url ?? '/';
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && !HOP.has(name)) headers.set(name, value);
      }
      const method = request.method ?? 'GET';
      const parsed = body === '' ? undefined : (JSON.parse(body) as Record<string, unknown>);
      const action = proxy.plan({ method, path, body: parsed });
      // The sandbox always acts first: every fault below happens to its answer.
      const answer = await fetch(new URL(path, upstream), {
        method,
        headers,
        ...(body === '' ? {} : { body }),
      });
      let text = await answer.text();
      let status = answer.status;
      if (action.kind === 'drop') {
        request.socket.destroy();
        return;
      }
      // Held until the client gives up: no race between a hold and a timeout on a busy machine.
      if (action.kind === 'hold' && !request.socket.destroyed) await once(request.socket, 'close');
      if (action.kind === 'status') status = action.status;
      if (action.kind === 'rewrite') {
        const json = JSON.parse(text) as { data: Record<string, unknown> };
        action.edit(json.data);
        text = JSON.stringify(json);
      }
      if (request.socket.destroyed) return;
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.has(name)) out[name] = value;
      });
      response.writeHead(status, out).end(text);
    })().catch(() => request.socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  proxy.url = `http://127.0.0.1:${port}${new URL(upstream).pathname.replace(/\/$/, '')}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
