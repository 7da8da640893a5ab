import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError, Wallet } from '@wallet/node';
import { json, loopback } from './helpers/loopback.js';
import { BASE_URL, paid, TEST_KEY } from './helpers/mock-service.js';

// The service answers about the reference asked (verify refuses any other).
const about = (url: string | undefined) => ({
  ...paid,
  reference: decodeURIComponent(String(url).split('/').pop() ?? ''),
});

let server: Awaited<ReturnType<typeof loopback>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const ok = () => loopback((req, res) => json(res, 200, { status: 'success', data: about(req.url) }));
const rawNames = (i: number) =>
  server!.received[i]!.rawHeaders.filter((_, j) => j % 2 === 0).map((n) => n.toLowerCase());

describe('headers', () => {
  it('are merged case-insensitively: one of each on the wire, the call replacing the default', async () => {
    server = await ok();
    const wallet = server.wallet({
      defaultHeaders: { Accept: 'application/json; v=2', 'X-Tenant': 'lagos' },
    });
    await wallet.charges.verify('r', { headers: { 'x-tenant': 'abuja', ACCEPT: 'application/json' } });
    const { headers } = server.received[0]!;
    expect(headers['x-tenant']).toBe('abuja');
    expect(headers.accept).toBe('application/json');
    expect(rawNames(0).filter((n) => n === 'x-tenant' || n === 'accept')).toHaveLength(2);
  });

  it.each([
    ['a non-Latin-1 letter', { 'X-Shop': 'Ìyá Àkàrà ẹ' }, /U\+1EB9/],
    ['a control character', { 'X-Shop': 'a\u0007b' }, /control character/],
    ['an expect header', { Expect: '100-continue' }, /not supported/],
    ['an upgrade header', { Upgrade: 'websocket' }, /managed by the HTTP layer/],
    ['a keep-alive header', { 'Keep-Alive': 'timeout=5' }, /managed by the HTTP layer/],
    ['the same name twice', { 'X-A': '1', 'x-a': '2' }, /twice/],
    // Their entries are no own properties: taken as an object, not one header was sent.
    [
      'a Headers object',
      new Headers({ 'X-Tenant': 'lagos' }) as never,
      /not an instance of Headers.*fromEntries/,
    ],
    ['a Map', new Map([['X-Tenant', 'lagos']]) as never, /not an instance of Map.*fromEntries/],
  ])('refuse %s at construction and per call, with nothing sent', async (_, headers, message) => {
    server = await ok();
    expect(() => new Wallet({ apiKey: TEST_KEY, baseUrl: BASE_URL, defaultHeaders: headers })).toThrow(
      message,
    );
    const error = await server
      .wallet()
      .charges.verify('r', { headers })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(message);
    expect(server.received).toHaveLength(0);
  });

  it('encode a Yoruba shop name in appInfo into the User-Agent rather than refusing it', async () => {
    server = await ok();
    await server.wallet({ appInfo: { name: 'Ìyá Àkàrà', version: '1.0' } }).charges.verify('r');
    const ua = server.received[0]!.headers['user-agent']!;
    expect(ua).toMatch(/^wallet-node\/\S+ node\/\S+ %C3%8Cy%C3%A1 %C3%80k%C3%A0r%C3%A0\/1\.0$/);
    expect(decodeURIComponent(ua.split(' ').slice(2).join(' '))).toBe('Ìyá Àkàrà/1.0');
  });
});
