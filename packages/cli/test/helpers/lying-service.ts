/**
 * A loopback service of the test's own, answering each verify as the test says (lies, storms,
 * refusals, dropped connections), and a run of the `wallet reconcile` bin against it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';

import { TEST_KEY, wallet } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wallet-cli-service-'));
export const ROWS = 40;
const ledger = join(dir, 'ledger.csv');
writeFileSync(
  ledger,
  `reference,amount,status\n${Array.from({ length: ROWS }, (_, i) => `ord_${i},10000,paid`).join('\n')}\n`,
);

export type Answer = (reference: string, n: number, res: ServerResponse) => void;

export const charge = (reference: string, extra: Record<string, unknown> = {}) => ({
  status: 'success',
  data: {
    reference,
    amount: 10_000,
    currency: 'NGN',
    status: 'SUCCESS',
    fee: 200,
    netAmount: 9_800,
    channel: 'wallet_push',
    customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada' },
    paidAt: '2026-11-21T10:01:00.000Z',
    ...extra,
  },
});
export const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** Runs `wallet reconcile` over a ledger of ROWS paid orders against a service answering `answer`. */
export async function run(answer: Answer, ...args: string[]) {
  let n = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    answer(decodeURIComponent(req.url!.split('/').pop()!), n++, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const out = join(dir, `report-${Math.random().toString(36).slice(2)}.csv`);
  try {
    const ran = await wallet(['reconcile', ledger, '--out', out, '--quiet', ...args], {
      env: { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url },
    });
    const rows = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    return { ...ran, rows, requests: n };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
