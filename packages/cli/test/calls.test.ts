import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv, wallet } from './helpers/processes.js';
import { seededSandbox } from './helpers/seed.js';

const sandbox = seededSandbox([
  { reference: 'c_paid', amount: 450_000, status: 'SUCCESS' },
  { reference: 'c_refund', amount: 450_000, status: 'SUCCESS' },
  { reference: 'c_wait', amount: 1_000, status: 'PENDING_AUTHORIZATION' },
  { reference: 'c_retry', amount: 450_000, status: 'SUCCESS' },
]);
const { env } = sandbox;

/** A loopback service that counts refunds and answers them as the service would. */
async function refundCounter() {
  let refunds = 0;
  const server = createServer((req, res) => {
    if (req.url === '/v1/refunds') refunds++;
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => answer(res, body));
  });
  // The refund's answer echoes the amount asked for (the SDK rejects another request's answer).
  const answer = (res: ServerResponse, body: string) => {
    const asked = (JSON.parse(body || '{}') as { amount?: number }).amount;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: 'success',
        message: 'ok',
        data: {
          refundReference: 'rf_1',
          amount: asked ?? 1000,
          currency: 'NGN',
          status: 'PROCESSED',
          refundedAt: new Date().toISOString(),
        },
      }),
    );
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => refunds,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs `wallet ARGS` on a pseudo-terminal, typing `input`. */
function onTerminal(args: string, extra: Record<string, string>, input: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${CLI_BIN} ${args}`, '/dev/null'], {
      env: cleanEnv({ TERM: 'xterm', ...extra }),
    });
    let text = '';
    let typed = false;
    // Typed once: the terminal echoes it back, and a write after the child ends is an EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      text += c;
      if (!typed && text.includes('Type yes to confirm')) {
        typed = true;
        child.stdin.write(input);
      }
    });
    child.on('close', () => resolve(text));
  });
}

describe('wallet charges and refunds', () => {
  it('charges verify prints the transaction and exits 0 on SUCCESS, 1 otherwise, JSON with --json', async () => {
    const paid = await wallet(['charges', 'verify', 'c_paid'], { env });
    expect(paid.code).toBe(0);
    expect(paid.stdout).toMatch(/c_paid {2}SUCCESS {2}₦4,500.00\n {2}fee ₦90.00, net ₦4,410.00/);
    const pending = await wallet(['--json', 'charges', 'verify', 'c_wait'], { env });
    expect(pending.code).toBe(1);
    expect(JSON.parse(pending.stdout)).toMatchObject({
      reference: 'c_wait',
      status: 'PENDING_AUTHORIZATION',
    });
    const missing = await wallet(['charges', 'verify', 'c_nowhere'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('c_nowhere');
  });

  it('keeps stdout for the result when the SDK logs (WALLET_LOG=debug): --json stays one JSON value', async () => {
    const ran = await wallet(['--json', 'charges', 'verify', 'c_paid'], {
      env: { ...env, WALLET_LOG: 'debug' },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ reference: 'c_paid', status: 'SUCCESS' });
    expect(ran.stderr).toContain('[wallet] GET /v1/charges/verify/c_paid');
  });

  it('charges wait resolves once the customer answers', async () => {
    const waiting = wallet(['charges', 'wait', 'c_wait', '--timeout', '20000'], { env });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await fetch(`${sandbox.url}/_sandbox/charges/c_wait/authorize`, { method: 'POST' });
    const ran = await waiting;
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('c_wait  SUCCESS');
  });

  it('refunds create refunds with a test key, the amount in Naira exactly', async () => {
    const ran = await wallet(
      ['refunds', 'create', 'c_refund', '--amount', '1000.50', '--amount-unit', 'naira'],
      { env },
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/Refunded ₦1,000.50 of c_refund: PROCESSED/);
    const bad = await wallet(['refunds', 'create', 'c_refund', '--amount', '10.5'], { env });
    expect(bad.code).toBe(2);
  });

  it('refuses a Naira amount of zero or less as a usage error (exit 2), as it does in Kobo', async () => {
    for (const amount of ['-0', '0.00', '-5', '-0.01']) {
      const ran = await wallet(
        ['refunds', 'create', 'c_refund', `--amount=${amount}`, '--amount-unit', 'naira'],
        {
          env,
        },
      );
      expect(ran.code, amount).toBe(2);
      expect(ran.stderr, amount).toContain(`--amount '${amount}'`);
    }
  });

  it('refunds create --idempotency-key: a re-run is the first refund, not a second one', async () => {
    const args = ['refunds', 'create', 'c_retry', '--amount', '1000', '--idempotency-key', 'refund-row-7'];
    const first = await wallet(args, { env });
    expect(first.code).toBe(0);
    const again = await wallet(args, { env });
    expect(again.code).toBe(0);
    const refundReference = /\((\S+)\)$/m.exec(first.stdout)?.[1];
    expect(refundReference).toBeDefined();
    expect(again.stdout).toContain(`(${refundReference})`);
    // The re-run says it was a replay: nothing new was refunded by it.
    expect(first.stdout).not.toContain('replay');
    expect(again.stdout).toMatch(/^Already refunded \(a replay of the first request with this key/m);
    // The same key for another amount is another operation: refused, not reported as done.
    const other = await wallet([...args.slice(0, 3), '--amount', '2000', ...args.slice(5)], { env });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('NOT carried out');
    // One refund of ₦10.00 happened: the rest of ₦4,500.00 is still there to refund.
    const rest = await wallet(['refunds', 'create', 'c_retry'], { env });
    expect(rest.stdout).toMatch(/Refunded ₦4,490\.00 of c_retry/);
  });

  it('refunds create against a service that answers a repeated key as the first time: never says it was no replay', async () => {
    // The service's spec: a repeated X-Idempotency-Key gets the saved answer, with no header saying so.
    const service = await refundCounter();
    try {
      const env = { WALLET_SECRET_KEY: 'sk_test_cli_4eC39HqLyjWDarjtT1zdp7dc', WALLET_BASE_URL: service.url };
      const keyed = ['--json', 'refunds', 'create', 'ord_1', '--amount', '100', '--idempotency-key', 'row-7'];
      for (const run of [await wallet(keyed, { env }), await wallet(keyed, { env })]) {
        expect(run.code).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject({ refundReference: 'rf_1', replayed: null });
        expect(run.stderr).toContain("this is that run's refund, not a second one");
      }
      // A key this run made itself was never used before: that refund is new.
      const fresh = await wallet(['--json', 'refunds', 'create', 'ord_2', '--amount', '100'], { env });
      expect(JSON.parse(fresh.stdout)).toMatchObject({ replayed: false });
      expect(fresh.stderr).not.toContain('not a second one');
    } finally {
      await service.close();
    }
  });

  it('refuses a live-key refund off a terminal without --yes, and sends it with --yes', async () => {
    const service = await refundCounter();
    try {
      const live = {
        WALLET_SECRET_KEY: 'sk_live_cli_4eC39HqLyjWDarjtT1zdp7dc',
        WALLET_BASE_URL: service.url,
      };
      const refused = await wallet(['refunds', 'create', 'ord_1'], { env: live });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('not on a terminal. Add --yes to confirm');
      expect(service.count()).toBe(0);
      const confirmed = await wallet(['refunds', 'create', 'ord_1', '--yes'], { env: live });
      expect(confirmed.code).toBe(0);
      expect(service.count()).toBe(1);
    } finally {
      await service.close();
    }
  });

  it('with --json, a live-key refund refused off a terminal says why in one JSON value on stdout (exit 1)', async () => {
    // `out=$(wallet --json refunds create …)` in CI without --yes: stdout was empty, nothing to parse.
    const service = await refundCounter();
    try {
      const live = {
        WALLET_SECRET_KEY: 'sk_live_cli_4eC39HqLyjWDarjtT1zdp7dc',
        WALLET_BASE_URL: service.url,
      };
      const refused = await wallet(['--json', 'refunds', 'create', 'ord_1'], { env: live });
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toEqual({
        error: {
          name: 'NotConfirmed',
          code: 'not_confirmed',
          message: expect.stringContaining('Add --yes to confirm') as string,
        },
      });
      expect(service.count()).toBe(0);
    } finally {
      await service.close();
    }
  });

  it('asks before a live-key refund on a terminal: no sends nothing, yes sends it', async () => {
    const service = await refundCounter();
    try {
      const live = {
        WALLET_SECRET_KEY: 'sk_live_cli_4eC39HqLyjWDarjtT1zdp7dc',
        WALLET_BASE_URL: service.url,
      };
      const no = await onTerminal('refunds create ord_2 --amount 5000', live, 'no\r');
      expect(no).toContain('Refund ₦50.00 of ord_2 with a LIVE key (real money)?');
      expect(no).toContain('Not confirmed: nothing was sent.');
      expect(service.count()).toBe(0);
      for (const almost of ['y\r', 'Yes\r', 'yes please\r']) {
        const text = await onTerminal('refunds create ord_2 --amount 5000', live, almost);
        expect(text).toContain('Not confirmed: nothing was sent.');
      }
      expect(service.count()).toBe(0);
      const yes = await onTerminal('refunds create ord_2 --amount 5000', live, 'yes\r');
      expect(yes).toContain('Refunded');
      expect(service.count()).toBe(1);
    } finally {
      await service.close();
    }
  });

  it('shows a live-key refund to confirm with the reference escaped: what is asked is what is sent', async () => {
    const service = await refundCounter();
    try {
      const live = {
        WALLET_SECRET_KEY: 'sk_live_cli_4eC39HqLyjWDarjtT1zdp7dc',
        WALLET_BASE_URL: service.url,
      };
      // A right-to-left override shows 'ord_2\u202e9_dro' as 'ord_2ord_9'; an ESC could erase the line.
      const asked = await onTerminal(
        "refunds create 'ord_2\u202e9_dro\u001b[2K' --amount 5000",
        live,
        'no\r',
      );
      expect(asked).toContain('Refund ₦50.00 of ord_2\\u202e9_dro\\x1b[2K with a LIVE key');
      // (readline draws the prompt with its own ESC sequences: only the reference's may not arrive.)
      expect(asked).not.toContain('\u202e');
      expect(asked).not.toContain('\u001b[2K');
      const refused = await wallet(['refunds', 'create', 'ord_\u202e1\u001b[2K'], { env: live });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('ord_\\u202e1\\x1b[2K');
      expect(refused.stderr).not.toContain('\u202e');
      expect(refused.stderr).not.toContain('\u001b');
      expect(service.count()).toBe(0);
    } finally {
      await service.close();
    }
  });
});

describe('wallet on a terminal', () => {
  it('escapes control characters and makes formula text inert in what the service says', async () => {
    const hostile = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      const reference = decodeURIComponent(req.url!.split('/').pop()!);
      res.end(
        JSON.stringify({
          status: 'success',
          data: {
            reference,
            amount: 1000,
            currency: 'NGN',
            status: 'FAILED\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007',
            channel: 'wallet_push',
            customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada' },
          },
        }),
      );
    });
    await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
      const text = await onTerminal(`charges verify '=cmd|x'`, { ...env, WALLET_BASE_URL: url }, '');
      expect(text).not.toContain('\u001b]');
      expect(text).toContain('\\x1b]8;;http://evil.example\\x07');
      expect(text).toMatch(/^'=cmd\|x {2}/m);
    } finally {
      hostile.close();
    }
  });
});
