/**
 * What the service says reaches the terminal as one line of text: a line break in its message
 * cannot print a line of its own (`All checks passed.`) under the command's name.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { TEST_KEY, wallet } from './helpers/processes.js';

describe("the service's message on a terminal", () => {
  it.each([404, 401, 409])(
    'escapes a line break in a %i message instead of printing a forged line',
    async (status) => {
      const server = createServer((_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ status: 'error', message: 'Refused\nRefunded ₦4,500.00 of ord_1: PROCESSED' }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const env = {
          WALLET_SECRET_KEY: TEST_KEY,
          WALLET_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        };
        for (const args of [
          ['charges', 'verify', 'ord_1'],
          ['refunds', 'create', 'ord_1'],
        ]) {
          const ran = await wallet(args, { env });
          expect(ran.code).toBe(1);
          expect(ran.stderr).toContain('Refused\\x0aRefunded');
          expect(ran.stdout + ran.stderr).not.toMatch(/^Refunded/m);
        }
      } finally {
        server.closeAllConnections();
        server.close();
      }
    },
  );

  it('shows an invisible character in service text (zero-width, word joiner, BOM, tag letters, variation selectors, Hangul filler) instead of hiding it', async () => {
    // `ord_1` and `ord_\u200b1` look the same on a terminal: a finance team would take one for the other.
    const hidden = 'ord_\u200b1\u200c\u200d\u2060\ufeff\u061c\u00ad\u{e0041}\ufe0f\u3164\u034f';
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'error', message: `No charge ${hidden}` }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = {
        WALLET_SECRET_KEY: TEST_KEY,
        WALLET_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      };
      const ran = await wallet(['charges', 'verify', 'ord_1'], { env });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain(
        'No charge ord_\\u200b1\\u200c\\u200d\\u2060\\ufeff\\u061c\\xad\\u{e0041}\\ufe0f\\u3164\\u034f',
      );
      expect(ran.stdout + ran.stderr).not.toMatch(
        /[\u200b-\u200d\u2060\ufeff\u061c\u00ad\u3164]|\ufe0f|\u034f|\u{e0041}/u,
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
