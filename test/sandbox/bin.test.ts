import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { USAGE, parseBinArgs } from '../../src/testing/cli/args.js';

import { callHttp } from './http-helpers.js';
import { WEBHOOK_SECRET, startReceiver } from './receiver.js';
import type { Receiver } from './receiver.js';
import { startTs } from './child.js';
import type { Child } from './child.js';

const BIN = 'src/testing/cli/bin.ts';
const LISTENING = /^wallet-sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/;

function textFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wallet-customers-')), 'customers.json');
  writeFileSync(file, text);
  return file;
}

function customersFile(content: unknown): string {
  return textFile(JSON.stringify(content));
}

let child: Child | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  child?.kill();
  await child?.exited;
  await receiver?.close();
  child = undefined;
  receiver = undefined;
});

describe('the wallet-sandbox bin', () => {
  it('prints its URL, serves a whole charge with webhook, and exits 0 on SIGTERM', async () => {
    receiver = await startReceiver();
    child = startTs(BIN, ['--port', '0', '--webhook-url', receiver.url, '--webhook-secret', WEBHOOK_SECRET]);
    const [, url] = await child.waitForLine(LISTENING);

    const resolved = await callHttp(url!, 'POST', '/v1/charges/resolve-handle', {
      body: { handle: '+2348000000001', amount: 250_000, reference: 'cli_1' },
    });
    expect(resolved.status).toBe(200);
    await callHttp(url!, 'POST', '/v1/charges/dispatch', {
      body: { reference: 'cli_1', bankId: 'bnk_ada_gtb', authChannel: 'wallet_push' },
    });
    const authorized = await callHttp(url!, 'POST', '/_sandbox/charges/cli_1/authorize', { apiKey: null });
    expect(authorized.body.data.webhook.delivered).toBe(true);
    expect(receiver.handled).toEqual([
      {
        event: 'charge.success',
        data: { reference: 'cli_1', amount: 250_000, customer: { handle: '@ada' } },
      },
    ]);
    expect((await callHttp(url!, 'GET', '/v1/charges/verify/cli_1')).body.data.status).toBe('SUCCESS');
    expect((await callHttp(url!, 'GET', '/v1/charges/verify/cli_1', { apiKey: 'sk_live_x' })).status).toBe(
      401,
    );

    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${url}/v1/charges/verify/cli_1`)).rejects.toThrow();
  });

  it('started without webhooks, prints how to add them; a control route adds them and the seeded state stays', async () => {
    receiver = await startReceiver();
    child = startTs(BIN, ['--port', '0']);
    const [, url] = await child.waitForLine(LISTENING);
    await child.waitForLine(/^ {2}customer {3}curl -X POST/);
    expect(child.stdout()).toContain(
      `curl -X POST ${url}/_sandbox/webhook -H 'content-type: application/json'`,
    );
    const seeded = await fetch(`${url}/_sandbox/seed`, {
      method: 'POST',
      body: '{"reference":"old_1","amount":500000,"status":"SUCCESS"}\n{"reference":"cli_w","amount":1000,"status":"PENDING_AUTHORIZATION"}\n',
    });
    expect(seeded.status).toBe(200);
    const set = await callHttp(url!, 'POST', '/_sandbox/webhook', {
      body: { url: receiver.url, secret: WEBHOOK_SECRET },
      apiKey: null,
    });
    expect(set.body).toMatchObject({ status: 'success', data: { url: receiver.url } });
    await callHttp(url!, 'POST', '/_sandbox/charges/cli_w/authorize', { apiKey: null });
    expect(receiver.handled.map((event) => event.data)).toEqual([
      { reference: 'cli_w', amount: 1000, customer: { handle: '@ada' } },
    ]);
    expect((await callHttp(url!, 'GET', '/v1/charges/verify/old_1')).body.data.status).toBe('SUCCESS');
    await child.waitForLine(/ webhooks -> http:\/\/127\.0\.0\.1:\d+\/webhooks\/wallet$/);
    const bad = await callHttp(url!, 'POST', '/_sandbox/webhook', {
      body: { url: receiver.url },
      apiKey: null,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/secret: is required/);
  });

  it('exits 0 on SIGINT, as after Ctrl-C', async () => {
    child = startTs(BIN, ['--port', '0']);
    await child.waitForLine(LISTENING);
    child.process.kill('SIGINT');
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });

  it('logs each request, adds --customers from a file, and injects seeded faults', async () => {
    const file = customersFile([
      {
        handle: '@chioma',
        phone: '+2348000000003',
        name: 'Chioma Obi',
        banks: [{ bankId: 'bnk_chioma_uba', bankName: 'UBA', bankCode: '033', accountNumber: '0011223344' }],
      },
    ]);
    child = startTs(BIN, ['--customers', file, '--fail-rate', '0.5', '--latency', '1-3', '--seed', '9']);
    const [, url] = await child.waitForLine(LISTENING);
    await child.waitForLine(/^ {2}customer {3}curl -X POST/);
    expect(child.stdout()).toMatch(/customers {2}@ada, @tunde, @chioma \(with --customers\)/);
    expect(child.stdout()).toMatch(/faults {5}fail rate 0\.5, latency 1-3 ms, seed 9/);
    const seen: (number | string)[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await callHttp(url!, 'POST', '/v1/charges/resolve-handle', {
        body: { handle: '@chioma', amount: 1000, reference: `cli_c${i}` },
      }).catch(() => 'reset');
      seen.push(typeof answer === 'string' ? answer : answer.status);
    }
    expect(seen).toContain(200);
    expect(seen.some((s) => s !== 200)).toBe(true);
    await child.waitForLine(/ POST \/v1\/charges\/resolve-handle 200 \d+ms$/);
    expect(child.stdout()).toMatch(/ POST \/v1\/charges\/resolve-handle (5\d\d|reset) fault=/);
  });

  it('refuses a bad flag with exit code 2, a clear message and its usage', async () => {
    child = startTs(BIN, ['--fail-rate', '1.5']);
    expect((await child.exited).code).toBe(2);
    expect(child.stderr()).toMatch(
      /^wallet-sandbox: Invalid arguments: --fail-rate: must be from 0 to 1 \(got 1\.5\)/,
    );
    expect(child.stderr()).toMatch(/Usage: wallet-sandbox/);
  });
});

// The same checks without a process each: parseBinArgs is what the bin runs first.
describe("the bin's flags", () => {
  it.each([
    [['--port', 'eighty'], /--port must be a number/],
    [['--port', '70000'], /--port must be a number from 0 to 65535/],
    [['--webhook-url', 'http://127.0.0.1:9/hook'], /--webhook-secret: is required with --webhook-url/],
    [['--webhook-url', 'ftp://x', '--webhook-secret', 's'], /--webhook-url: must be an http: or https: URL/],
    [['--colour'], /Unknown option '--colour'/],
    [['--fail-rate', '1.5'], /--fail-rate: must be from 0 to 1 \(got 1\.5\)/],
    [['--fail-rate', 'lots'], /--fail-rate must be a number/],
    [['--latency', '50-10'], /--latency: must be \[min, max\] with min <= max/],
    [['--latency', 'slow'], /--latency must be ms, or MIN-MAX/],
    [['--seed', '1.5'], /--seed must be a whole number/],
    [
      ['--fault-kinds', 'error,slow'],
      /--fault-kinds: kind 2: must be one of error, reset, reset-after, rate-limit/,
    ],
    [['--retry-after', '5-2'], /--retry-after: must be \[min, max\] with min <= max/],
    [['--retry-after', '4000'], /--retry-after: must be a whole number from 0 to 3600/],
    [['--retry-after', 'soon'], /--retry-after must be seconds, or MIN-MAX in seconds/],
    [['--max-charges', '0'], /--max-charges: must be a whole number from 1 to 10000000/],
    [['--max-charges', 'many'], /--max-charges must be a whole number/],
    [
      ['--customers', '/nonexistent/customers.json'],
      /--customers: cannot read \/nonexistent\/customers\.json \(ENOENT\)/,
    ],
    [['--customers', textFile('[{ handle: @x }]')], /is not valid JSON/],
    [
      ['--customers', customersFile({ customers: [{ handle: '@x', name: 'X', phone: 'none' }] })],
      /--customers: customer 0\.phone: must be a phone number/,
    ],
    [['--customers', customersFile({ '@x': {} })], /--customers: must be an array/],
  ])('refuses %j with a sentence naming the flag', (args, message) => {
    const parsed = parseBinArgs(args);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' && parsed.message).toMatch(message);
  });

  it('turns good flags into sandbox and listen options', () => {
    const parsed = parseBinArgs([
      '--port',
      '4010',
      '--fail-rate',
      '0.2',
      '--latency',
      '20-300',
      '--seed',
      '42',
      '--fault-kinds',
      'error,rate-limit',
      '--retry-after',
      '1-3',
      '--max-charges',
      '5000',
      '--quiet',
    ]);
    expect(parsed).toMatchObject({
      kind: 'serve',
      listen: { port: 4010, host: '127.0.0.1' },
      quiet: true,
      sandbox: {
        faults: {
          failRate: 0.2,
          latency: [20, 300],
          seed: 42,
          kinds: ['error', 'rate-limit'],
          retryAfter: [1, 3],
        },
        maxCharges: 5000,
      },
    });
  });

  it("is documented whole: docs/sandbox.md's flag list has each flag of its --help", () => {
    const flags = [...USAGE.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
    const listed =
      readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8').split('## Every flag')[1] ?? '';
    expect(flags.length).toBeGreaterThan(10);
    expect(flags.filter((flag) => !listed.includes(`  ${flag} `))).toEqual([]);
  });
});
