/**
 * A forward proxy on loopback that fails as real ones do, from a seeded RNG per request: it answers
 * 502 itself without forwarding, drops the merchant's connection before forwarding or after the
 * service answered, or sends an unsolicited `100 Continue` before relaying the answer. It demands
 * credentials and counts what it did.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rng } from '../reliability/helpers/tools.js';

export type ProxyFault = 'relay' | 'own-502' | 'drop-before' | 'drop-after' | 'continue';

const SHARES: readonly [ProxyFault, number][] = [
  ['own-502', 0.08],
  ['drop-before', 0.06],
  ['drop-after', 0.06],
  ['continue', 0.15],
];

/** Starts the proxy; `user` and `password` are demanded (anything else is answered 407). */
export async function startFaultyProxy(user: string, password: string, seed: number) {
  const credentials = `${user}:${password}`;
  const random = rng(seed);
  const expected = `Basic ${Buffer.from(credentials).toString('base64')}`;
  const counts: Record<ProxyFault | 'refused-407', number> = {
    relay: 0,
    'own-502': 0,
    'drop-before': 0,
    'drop-after': 0,
    continue: 0,
    'refused-407': 0,
  };
  const fault = (): ProxyFault => {
    let r = random();
    for (const [name, share] of SHARES) if ((r -= share) < 0) return name;
    return 'relay';
  };
  const server = createServer((req, res) => {
    if (req.headers['proxy-authorization'] !== expected) {
      counts['refused-407']++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="stress"' }).end();
      return;
    }
    const what = fault();
    counts[what]++;
    if (what === 'drop-before') return void req.socket.destroy();
    if (what === 'own-502') {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1><p>squid</p>');
      return;
    }
    if (what === 'continue') res.writeContinue();
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(new URL(req.url ?? '/'), { method: req.method, headers }, (answer) => {
      if (what === 'drop-after') return void (answer.resume(), req.socket.destroy());
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
