/**
 * Hostile responses, shared by the undici (npm test) and fetch (test:stress) runs: whatever a broken proxy or a malicious server answers, the merchant gets a
 * typed WalletError, never a hang (the deadline ends it), memory stays bounded, JSON.stringify of the error works,
 * redirects are never followed (so the key never goes elsewhere), and the key stays private.
 */
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWalletError, Wallet, type ClientOptions } from '@wallet/node';
import { sendJson, startServer, type Arrived, type TestServer } from './server.js';
import { SECRET_KEY, SecretLedger, stringify } from './surfaces.js';
import { gc, report, since } from './tools.js';

// Each attempt's deadline. No case is timed against it: a case whose deadline failed never ends,
// and the test's own timeout reports it; the figures show how long each case took.
const TIMEOUT = 500;
const MiB = 1024 * 1024;

type Behaviour = (req: Arrived, res: http.ServerResponse) => void;
interface Case {
  name: string;
  behaviour: Behaviour;
  call?: 'verify' | 'dispatch';
  maxRetries?: number;
  /** When set, the error must have this code (else any WalletError will do). */
  code?: string;
}

const html =
  (status: number, body: string): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(body);
  };
const json =
  (status: number, body: string): Behaviour =>
  (_req, res) =>
    sendJson(res, status, body);
// Raw bytes on the socket, for what node:http refuses to produce (duplicate content-length...).
const raw =
  (text: string): Behaviour =>
  (req) => {
    req.socket.end(text);
  };
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Streams `total` bytes as fast as the client reads, from one reused buffer (the server stays small). */
function stream(total: number, status = 200): Behaviour {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    let sent = 0;
    const pump = (): void => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (sent = total));
    pump();
  };
}

function trickle(headers: http.OutgoingHttpHeaders): Behaviour {
  return (_req, res) => {
    res.writeHead(200, headers);
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('a')), 50);
    res.on('close', () => clearInterval(timer));
  };
}

const CASES: Case[] = [
  { name: '404 with 50 KB of "<"', behaviour: html(404, '<'.repeat(50_000)) },
  // Sizes stay where a quadratic excerpt builder takes seconds, not hours: a blocked event loop
  // cannot be interrupted by the test's own timers.
  { name: '404 with 100 KB of "<"', behaviour: html(404, '<'.repeat(100_000)) },
  { name: '502 with 40 KB of "<script" never closed', behaviour: html(502, '<script'.repeat(6_000)) },
  { name: '500 with 60 KB of "<a " unclosed tags', behaviour: html(500, '<a '.repeat(20_000)) },
  {
    name: '200 truncated JSON (complete message)',
    behaviour: json(200, '{"status":"success","data":{"refer'),
  },
  {
    name: '200 JSON cut off by the connection',
    behaviour: raw(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"status":"succ',
    ),
  },
  {
    name: '2 GB content-length with a trickle',
    behaviour: trickle({ 'content-type': 'application/json', 'content-length': String(2 * 1024 * MiB) }),
  },
  {
    name: 'chunked body dripping a byte every 50 ms',
    behaviour: trickle({ 'content-type': 'application/json' }),
  },
  { name: 'never answers', behaviour: () => undefined },
  {
    name: '200 MB body (not retried, response_too_large)',
    behaviour: stream(200 * MiB),
    maxRetries: 2,
    code: 'response_too_large',
  },
  {
    name: '503 with a 5 MB body (response_too_large)',
    behaviour: stream(5 * MiB, 503),
    maxRetries: 2,
    code: 'response_too_large',
  },
  { name: '200 JSON string', behaviour: json(200, '"hello"') },
  { name: '200 JSON array', behaviour: json(200, '[1,2,3]') },
  { name: '200 JSON null', behaviour: json(200, 'null') },
  { name: '200 JSON number', behaviour: json(200, '42') },
  { name: '400 JSON array', behaviour: json(400, '[{"status":"error"}]') },
  { name: '200 data is a string', behaviour: json(200, '{"status":"success","data":"x"}') },
  { name: '200 envelope status error', behaviour: json(200, '{"status":"error","message":"nope"}') },
  { name: '200 array nested 100,000 deep', behaviour: json(200, deep(100_000)) },
  { name: '400 array nested 100,000 deep', behaviour: json(400, deep(100_000)) },
  {
    name: '200 data nested 100,000 deep',
    behaviour: json(200, `{"status":"success","data":${deepObject(100_000)}}`),
  },
  {
    name: '422 message nested 100,000 deep',
    behaviour: json(422, `{"status":"error","message":${deep(100_000)}}`),
  },
  { name: '200 HTML', behaviour: html(200, '<html><body>Welcome to nginx!</body></html>') },
  {
    name: 'duplicate content-type headers',
    behaviour: raw(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-type: text/html\r\ncontent-length: 2\r\n\r\n{}',
    ),
  },
  {
    name: 'two different content-length headers',
    behaviour: raw('HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 40\r\n\r\n{}'),
  },
  {
    name: 'duplicate Retry-After on a 429',
    behaviour: raw(
      'HTTP/1.1 429 Too Many Requests\r\nretry-after: 5\r\nretry-after: 5\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
    ),
    maxRetries: 0,
  },
  {
    name: '429 with a 400-digit Retry-After',
    behaviour: (_req, res) =>
      sendJson(res, 429, { status: 'error', message: 'slow' }, { 'retry-after': '9'.repeat(400) }),
  },
  {
    name: '30 KB of response headers',
    behaviour: raw(`HTTP/1.1 200 OK\r\nx-pad: ${'a'.repeat(30_000)}\r\ncontent-length: 2\r\n\r\n{}`),
  },
  { name: 'not HTTP at all', behaviour: raw('HELLO WORLD\r\n\r\n') },
  { name: 'status 999', behaviour: raw('HTTP/1.1 999 Weird\r\ncontent-length: 2\r\n\r\n{}') },
  {
    name: '101 Switching Protocols',
    behaviour: raw('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n'),
  },
];

/** The hostile cases against a client built with `transport` (the default undici Agent, or fetch). */
export function hostileSuite(name: string, transport: Partial<ClientOptions>): void {
  describe(`${name}: a typed error (never a hang), bounded memory, stringify-safe`, () => {
    let server: TestServer;
    let thief: TestServer;
    let behaviour: Behaviour = () => undefined;
    const ledger = new SecretLedger();
    const figures: Record<string, string> = {};
    let rssBefore = 0;
    let rssPeak = 0;

    beforeAll(async () => {
      server = await startServer((req, res) => behaviour(req, res));
      thief = await startServer((_req, res) => sendJson(res, 200, { status: 'success', data: {} }));
      // One call first, so lazy loading (undici, the schemas) is not timed as the first case.
      await run({ name: 'warm-up', behaviour: json(404, '{"status":"error","message":"warm-up"}') });
      gc();
      rssBefore = process.memoryUsage().rss;
    });
    afterAll(async () => {
      await server.close();
      await thief.close();
      report(name, {
        cases: Object.keys(figures).length,
        rssGrowthMiB: Math.round((rssPeak - rssBefore) / MiB),
        secretSurfacesChecked: ledger.checked,
        outcomes: figures,
      });
    });

    async function run(
      c: Case,
    ): Promise<{ error: unknown; ms: number; requests: number; rssGrowth: number }> {
      behaviour = c.behaviour;
      const before = server.arrived.length;
      const rssAtStart = process.memoryUsage().rss;
      const maxRetries = c.maxRetries ?? 0;
      const wallet = new Wallet({
        apiKey: SECRET_KEY,
        baseUrl: server.url,
        timeout: TIMEOUT,
        maxRetries,
        logger: quiet,
        ...transport,
      });
      const started = performance.now();
      let error: unknown;
      try {
        await (c.call === 'dispatch'
          ? wallet.charges.dispatch({ reference: 'order_1', bankId: 'bnk_01', authChannel: 'wallet_push' })
          : wallet.charges.verify('order_1'));
      } catch (e) {
        error = e;
      }
      const ms = since(started);
      await wallet.close();
      const rss = process.memoryUsage().rss;
      rssPeak = Math.max(rssPeak, rss);
      return { error, ms, requests: server.arrived.length - before, rssGrowth: rss - rssAtStart };
    }

    for (const c of CASES) {
      for (const call of ['verify', 'dispatch'] as const) {
        it(`${c.name} (${call}): a typed error, never a hang, JSON.stringify safe`, async () => {
          const { error, ms, requests, rssGrowth } = await run({ ...c, call });
          figures[`${c.name} (${call})`] = `${(error as Error | undefined)?.name ?? 'resolved'} in ${ms} ms`;
          ledger.error(error, c.name);
          expect(isWalletError(error), `${String(error)}`).toBe(true);
          expect(() => JSON.stringify(error)).not.toThrow();
          expect(stringify(error)).not.toMatch(/^<JSON\.stringify threw/);
          const attempts = (c.maxRetries ?? 0) + 1;
          if (!c.code) expect(requests, 'the service saw every attempt, and no more').toBe(attempts);
          if ((error as { attempts?: unknown }).attempts !== undefined)
            expect((error as { attempts: number }).attempts).toBe(requests);
          if (c.code) {
            expect((error as { code?: string }).code).toBe(c.code);
            expect(requests, 'an oversized answer is not retried').toBe(1);
            // The oversized body is cut off, not buffered: this one call grows RSS by far less than it.
            expect(rssGrowth).toBeLessThan(32 * MiB);
          }
          const retryAfter = (error as { retryAfter?: unknown }).retryAfter;
          if (retryAfter !== undefined) expect(Number.isFinite(retryAfter)).toBe(true);
        });
      }
    }

    it('memory stays bounded across every case (RSS growth under 128 MiB, with a 200 MB body among them)', () => {
      gc();
      expect(rssPeak - rssBefore).toBeLessThan(128 * MiB);
    });

    for (const status of [301, 302, 303, 307, 308]) {
      it(`a ${status} redirect is never followed: typed error, the other host never sees the key`, async () => {
        const { error, requests } = await run({
          name: `redirect ${status}`,
          behaviour: (_req, res) => {
            res.writeHead(status, { location: `${thief.url}/v1/charges/verify/order_1` });
            res.end();
          },
          maxRetries: 2,
        });
        ledger.error(error, `redirect ${status}`);
        expect(isWalletError(error)).toBe(true);
        expect(requests).toBe(1);
        expect(thief.arrived).toHaveLength(0);
      });
    }

    for (const junk of ['-5', '5, 5', 'soon', '1e3', '0x10']) {
      it(`Retry-After ${JSON.stringify(junk)} is never read as "now": the retry waits the normal backoff`, async () => {
        let first = 0;
        let second = 0;
        const { error } = await run({
          name: `retry-after ${junk}`,
          maxRetries: 1,
          behaviour: (_req, res) => {
            if (first === 0) first = performance.now();
            else second = performance.now();
            sendJson(res, 503, { status: 'error', message: 'busy' }, { 'retry-after': junk });
          },
        });
        expect(isWalletError(error)).toBe(true);
        // The backoff before the first retry is about 0.5 s, shortened by at most a quarter.
        expect(second - first).toBeGreaterThan(300);
      });
    }

    it('the key appears on no surface of any of these errors', () => {
      expect(ledger.leaks).toEqual([]);
      expect(ledger.checked).toBeGreaterThan(100);
    });
  });
}

const noop = (): void => undefined;
const quiet = { debug: noop, info: noop, warn: noop, error: noop };
