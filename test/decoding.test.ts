import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, ResponseTooLargeError, ResponseValidationError } from '@wallet/node';
import { loopback } from './helpers/loopback.js';
import { paid } from './helpers/mock-service.js';
import { caught } from './helpers/caught.js';

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const body = Buffer.from(JSON.stringify({ status: 'success', data: paid }));
const CODINGS: [string, string, (b: Buffer) => Buffer][] = [
  ['gzip', 'gzip', zlib.gzipSync],
  ['x-gzip', 'x-gzip', zlib.gzipSync],
  ['deflate (zlib)', 'deflate', zlib.deflateSync],
  ['deflate (raw)', 'deflate', zlib.deflateRawSync],
  ['br', 'br', zlib.brotliCompressSync],
];
// 64 MiB of zeros, about 64 KiB packed: far over the cap once decoded, far under it on the wire.
const BOMB = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));

describe.each([
  ['undici', {}],
  ['fetch', { fetch: (input: string, init: RequestInit) => fetch(input, init) }],
])('compressed answers (%s)', (_name, transport) => {
  it.each(CODINGS)('decodes %s', async (_label, coding, pack) => {
    server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(pack(body));
    });
    await expect(server.wallet(transport).charges.verify('order_1042')).resolves.toMatchObject({
      reference: 'order_1042',
      amount: 500_000,
    });
  });

  it('a gzipped 404 has a readable message', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(JSON.stringify({ status: 'error', message: 'Unknown reference order_9' })));
    });
    const error = await caught(server.wallet(transport).charges.verify('order_9'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error!.message).toBe('Unknown reference order_9');
  });

  it('a gzip bomb is refused as too large once 1 MiB is decoded, before its end arrives', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.write(BOMB); // and never ends: inflating it whole would wait for the end
    });
    const error = await caught(
      server.wallet({ ...transport, maxRetries: 0 }).refunds.create({ reference: 'r' }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 1024 * 1024, outcomeUnknown: true });
  });

  it('an encoding the SDK cannot decode is a clear error, not "expected a JSON body"', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'snappy' });
      res.end(body);
    });
    const error = await caught(server.wallet(transport).charges.verify('order_1042'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error!.message).toContain('Content-Encoding "snappy"');
    expect(error!.message).not.toContain('expected a JSON body');
  });
});

describe('undici only', () => {
  it('a corrupt gzip body is a clear error', async () => {
    server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(Buffer.from('not gzip at all'));
    });
    const error = await caught(server.wallet().charges.verify('order_1042'));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error!.message).toContain('gzip body that could not be decoded');
  });

  it('a 103 Early Hints before the answer is skipped', async () => {
    server = await loopback((_req, res) => {
      res.writeEarlyHints({ link: '</x>; rel=preload' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await expect(server.wallet().charges.verify('order_1042')).resolves.toMatchObject({
      reference: 'order_1042',
    });
  });
});
