import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { serving } from './loopback.js';

/** One request as a raw server read it. */
export interface RawRequest {
  /** 1-based, across connections. */
  n: number;
  /** 1-based number of the TCP connection it came on. */
  connection: number;
  method: string;
  path: string;
  body: string;
}

/** What the server writes back: pieces written in order, each in its own socket write, a turn apart. */
export type RawScript = (request: RawRequest) => (string | Buffer)[];

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/**
 * An HTTP/1.1 server on 127.0.0.1 written on `node:net`, for answers `node:http` will not write:
 * a `100 Continue` nobody asked for, heads split byte by byte, bytes that only look like a head.
 * Requests are read with Content-Length framing (all the SDK sends); keep-alive is honoured. With
 * `secure`, it speaks TLS.
 */
export async function rawServer(script: RawScript, secure?: { cert: Buffer; key: Buffer }) {
  const requests: RawRequest[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const serve = (socket: net.Socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    let writing = Promise.resolve();
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const [method = '', path = ''] = head.split(' ');
        const body = pending.subarray(end + 4, end + 4 + length).toString('utf8');
        pending = pending.subarray(end + 4 + length);
        const request = { n: requests.length + 1, connection, method, path, body };
        requests.push(request);
        const pieces = script(request);
        writing = writing.then(async () => {
          for (const piece of pieces) {
            if (socket.destroyed) return;
            socket.write(piece);
            await turn();
          }
        });
      }
    });
  };
  const server = secure ? tls.createServer(secure, serve) : net.createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // The fixture certificate is for localhost.
  const url = secure ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  return { ...serving(url, server, sockets), requests, connections: () => connections };
}

/** A whole HTTP/1.1 answer with a JSON body. */
export function jsonAnswer(status: number, value: unknown, reason = status === 200 ? 'OK' : 'Error'): string {
  const body = Buffer.from(JSON.stringify(value));
  return (
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\n` +
    `content-length: ${body.length}\r\n\r\n${body.toString('latin1')}`
  );
}

/** Every piece of `text` one byte long. */
export const bytes = (text: string): string[] => [...text];
