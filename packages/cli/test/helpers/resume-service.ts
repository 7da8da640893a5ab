/**
 * The service the resume tests run against: every reference a paid charge, 500 for those in
 * `service.failing`, 401 for every key while `service.refusing`; slow enough to kill mid-run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll } from 'vitest';

import { charge, json } from './lying-service.js';
import { TEST_KEY, wallet } from './processes.js';

/** What the service answers, set by each test; `env` is filled once it listens. */
export const service = { failing: new Set<string>(), refusing: false, env: {} as Record<string, string> };

/** The rows of the tests' usual ledger. */
export const ROWS = 60;

/** Where a file's ledgers and reports go. */
export const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-resume-'));

/** `n` paid ledger rows, `ord_<from>` on. */
export const rows = (n: number, from = 0): string =>
  Array.from({ length: n }, (_, i) => `ord_${i + from},10000,paid`).join('\n');

/** Starts the service before the file's tests and stops it after them. */
export function useResumeService(): void {
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res: ServerResponse) => {
      const reference = decodeURIComponent(req.url!.split('/').pop()!);
      setTimeout(() => {
        if (service.refusing) json(res, 401, { status: 'error', message: 'Invalid API key' });
        else if (service.failing.has(reference)) json(res, 500, { status: 'error', message: 'try later' });
        else json(res, 200, charge(reference));
      }, 5);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    Object.assign(service.env, {
      WALLET_SECRET_KEY: TEST_KEY,
      WALLET_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
}

/** A ledger file of `text` under its header. */
export function ledger(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, `reference,amount,status\n${text}\n`);
  return path;
}

/** `wallet reconcile FILE --out OUT`, quiet, no retries. */
export const reconcile = (file: string, out: string, ...more: string[]) =>
  wallet(['reconcile', file, '--out', out, '--quiet', '--retries', '0', ...more], { env: service.env });
