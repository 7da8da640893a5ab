/**
 * Slow senders for the body-deadline tests: one byte at a time, over a raw socket (paced by the
 * test, on the fake clock) or as a stream.
 */
import { once } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect } from 'node:net';

import { listen } from './helpers.js';

/** A request body stream that enqueues one byte every `intervalMs` and never ends by itself. */
export function dripStream(intervalMs: number): {
  stream: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
  sent: () => number;
} {
  let cancelled = false;
  let sent = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => {
        sent++;
        controller.enqueue(new Uint8Array([0x7b]));
      }, intervalMs);
    },
    cancel() {
      cancelled = true;
      clearInterval(timer);
    },
  });
  return { stream, cancelled: () => cancelled, sent: () => sent };
}

/** How a raw POST ended: the status line's code (0 when none), and whether the server hung up. */
export interface RawAnswer {
  status: number;
  /** The answer's `Connection` header. */
  connection: string | undefined;
  /** True when the server closed the connection: the client never ends it. */
  closedByServer: boolean;
}

/**
 * A POST over a raw socket whose body the test writes a byte at a time with `byte()`, each one
 * read by the server (`read`) before the test moves on. With the fake clock on, the test moves time
 * itself between bytes: the handler's deadline then runs on that clock and answers at exactly its
 * deadline however loaded the machine, while the bytes still travel over a real socket.
 */
export function rawPost(url: string, declaredLength?: number) {
  const { hostname, port, pathname } = new URL(url);
  const socket = connect(Number(port), hostname);
  const framing =
    declaredLength === undefined ? 'transfer-encoding: chunked' : `content-length: ${declaredLength}`;
  socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}\r\n${framing}\r\n\r\n`);
  socket.on('error', () => undefined); // EPIPE/ECONNRESET once the server closes mid-drip
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  const answer = new Promise<RawAnswer>((resolve) =>
    socket.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        connection: /\r\nconnection: *([^\r]*)/i.exec(text)?.[1],
        closedByServer: true,
      }),
    ),
  );
  return {
    answer,
    /** Writes one body byte and resolves once the server has read it from `req`. */
    async byte(req: IncomingMessage): Promise<void> {
      const read = once(req, 'data');
      socket.write(declaredLength === undefined ? '1\r\n{\r\n' : '{');
      await read;
    },
    destroy: () => socket.destroy(),
  };
}

/** A server for one request, that says when it arrived (the handler's deadline starts then). */
export async function listenForOne(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<{ url: string; server: Server; request: Promise<IncomingMessage> }> {
  let arrived!: (req: IncomingMessage) => void;
  const request = new Promise<IncomingMessage>((resolve) => (arrived = resolve));
  const { url, server } = await listen((req, res) => {
    arrived(req);
    void handler(req, res);
  });
  return { url, server, request };
}
