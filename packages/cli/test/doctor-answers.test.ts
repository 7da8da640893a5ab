/**
 * What `wallet doctor` makes of the service's answer to its round trip: each refusal explained with
 * the fix that helps (never "check the base URL" for an outage), and nothing the service wrote
 * reaching the terminal as an escape.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { against, check, doctor } from './helpers/doctor.js';
import { statusServer } from './helpers/servers.js';

describe("wallet doctor on the service's answers", () => {
  it('explains a 401 as the wrong key for this environment', async () => {
    const ran = await against(statusServer(401));
    expect(ran.code).toBe(1);
    expect(check(ran.stdout, 'round trip')).toMatch(
      /^FAIL\s+round trip\s+401: the service refused the key.*\nfix: Use a key of this environment/,
    );
  });

  it('lets no escape sequence from the service reach the terminal (its message, its Date header)', async () => {
    // A hyperlink, a bell, a right-to-left override in the message; a C1 CSI (0x9b) in the Date header.
    const server = createServer((_req, res) => {
      res.setHeader('date', 'Sun, 29 Nov 2026 \x9b2J');
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ status: 'error', message: 'Bad \u001b]8;;http://evil.example\u0007key\u202e' }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const ran = await doctor({ WALLET_BASE_URL: `http://127.0.0.1:${port}` });
      expect(ran.code).toBe(1);
      expect(check(ran.stdout, 'round trip')).toContain('Bad \\x1b]8;;http://evil.example\\x07key\\u202e');
      expect(check(ran.stdout, 'clock')).toContain('\\x9b2J');
      // eslint-disable-next-line no-control-regex -- no control character but the line breaks may remain.
      expect(ran.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('blames the service, not the base URL, for a 5xx or a 429 (an outage is when merchants run it)', async () => {
    for (const [status, fix] of [
      [503, /\nfix: The service answered 503: a failure on its side/],
      [429, /\nfix: The service is limiting this key's requests/],
    ] as const) {
      const line = check((await against(statusServer(status))).stdout, 'round trip');
      expect(line, String(status)).toMatch(new RegExp(`^FAIL\\s+round trip\\s+${status}: `));
      expect(line, String(status)).toMatch(fix);
      expect(line, String(status)).not.toContain('WALLET_BASE_URL');
    }
  });

  it('says how long a 429 asks to wait in whole seconds, a Retry-After date included', async () => {
    const server = createServer((_req, res) => {
      // An HTTP date 30 s ahead: the seconds left are a fraction by the time it is read.
      const at = new Date(Date.now() + 30_000).toUTCString();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': at });
      res.end('{"status":"error","message":"Too many requests"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const line = check((await doctor({ WALLET_BASE_URL: url })).stdout, 'round trip');
      expect(line).toMatch(/ \d+ s\b/);
      expect(line).not.toMatch(/\d\.\d+ s\b/);
    } finally {
      server.close();
    }
  });

  it("explains a 403 as the key's IP allow list", async () => {
    const ran = await against(statusServer(403));
    expect(ran.code).toBe(1);
    expect(check(ran.stdout, 'round trip')).toMatch(
      /^FAIL\s+round trip\s+403: the key is locked to an IP allow list.*\nfix: Add this server's outbound IP address/,
    );
  });
});
