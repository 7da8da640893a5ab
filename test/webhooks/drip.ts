/**
 * Slow senders for the body-deadline tests: one byte at a time, over a raw socket or as a stream.
 */
import { connect } from 'node:net';

/** What a dripping client saw. */
export interface DripResult {
  /** The status line's code, or 0 when no answer came. */
  status: number;
  /** From the first byte sent to the answer. */
  elapsedMs: number;
  /** Whether the server closed the connection within 2 s of answering. */
  closedByServer: boolean;
}

/**
 * POSTs to `url` over a raw socket, sending headers at once and then one body byte every
 * `intervalMs`, until the server answers (or 10 s pass). With `declaredLength` the body is framed by
 * content-length, otherwise chunked.
 */
export function dripRequest(
  url: string,
  { intervalMs, declaredLength }: { intervalMs: number; declaredLength?: number },
): Promise<DripResult> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const started = performance.now();
    let answer = '';
    let elapsedMs = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const giveUp = setTimeout(() => socket.destroy(), 10_000);
    const framing =
      declaredLength === undefined ? 'transfer-encoding: chunked' : `content-length: ${declaredLength}`;
    socket.on('connect', () => {
      socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}\r\n${framing}\r\n\r\n`);
      timer = setInterval(() => {
        if (!socket.writable) return;
        socket.write(declaredLength === undefined ? '1\r\n{\r\n' : '{');
      }, intervalMs);
    });
    socket.on('data', (chunk) => {
      if (answer === '') elapsedMs = performance.now() - started;
      answer += String(chunk);
    });
    socket.on('error', () => undefined); // EPIPE/ECONNRESET once the server closes mid-drip
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      if (status === 0 && answer !== '') reject(new Error(`unexpected answer: ${answer}`));
      else resolve({ status, elapsedMs, closedByServer: performance.now() - started - elapsedMs < 2_000 });
    });
  });
}

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
