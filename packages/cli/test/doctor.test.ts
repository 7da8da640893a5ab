import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { against, check, doctor } from './helpers/doctor.js';
import { startSandbox, wallet, type SandboxProcess } from './helpers/processes.js';
import { CERT, closedPort, statusServer, tls12Server } from './helpers/servers.js';

let sandbox: SandboxProcess;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('wallet doctor', () => {
  it('passes against the sandbox over http, with TLS marked not applicable', async () => {
    const ran = await doctor({ WALLET_BASE_URL: sandbox.url });
    expect(ran.code).toBe(0);
    expect(check(ran.stdout, 'key')).toMatch(/^pass\s+key\s+test mode/);
    expect(check(ran.stdout, 'TLS 1.3')).toMatch(/^n\/a\s+TLS 1.3\s+http: on loopback/);
    expect(check(ran.stdout, 'round trip')).toMatch(/^pass .*authenticated/);
    expect(check(ran.stdout, 'clock')).toMatch(/^pass/);
    expect(check(ran.stdout, 'proxy')).toMatch(/^pass/);
    expect(ran.stdout).toContain('All checks passed.');
  });

  it('fails a server that negotiates only TLS 1.2, and says why', async () => {
    const ran = await against(tls12Server(), { NODE_EXTRA_CA_CERTS: CERT });
    expect(ran.code).toBe(1);
    expect(check(ran.stdout, 'TLS 1.3')).toMatch(
      /^FAIL\s+TLS 1.3\s+localhost:\d+ negotiated TLSv1.2, not TLSv1.3\nfix: .*TLS-inspecting proxy/,
    );
    expect(check(ran.stdout, 'DNS')).toMatch(/^pass\s+DNS\s+localhost ->/);
  });

  it('fails a clock ten minutes off the service Date header', async () => {
    const ran = await against(statusServer(404, 10 * 60_000));
    expect(ran.code).toBe(1);
    expect(check(ran.stdout, 'clock')).toMatch(
      /^FAIL\s+clock\s+this machine's clock is (59\d|60\d) s behind the service's\nfix: Sync the clock/,
    );
    expect(check(ran.stdout, 'round trip')).toMatch(/^pass/);
  });

  it('fails a base URL with a wrong path prefix (a front server 404), with the fix', async () => {
    const ran = await doctor({ WALLET_BASE_URL: `${sandbox.url}/wrong` });
    expect(ran.code).toBe(1);
    expect(check(ran.stdout, 'round trip')).toMatch(
      /^FAIL\s+round trip\s+404 from something that is not the Wallet service.*\nfix: Set WALLET_BASE_URL to the service's address plus any gateway prefix, without \/v1/,
    );
  });

  it('says nothing is listening on a refused connection', async () => {
    const ran = await doctor({ WALLET_BASE_URL: await closedPort() });
    expect(ran.code).toBe(1);
    expect(check(ran.stdout, 'round trip')).toMatch(
      /^FAIL\s+round trip.*\nfix: Nothing is listening at 127.0.0.1:\d+: start the sandbox/,
    );
  });

  it('fails a host that does not resolve, and skips what needs it', async () => {
    const ran = await doctor({ WALLET_BASE_URL: 'https://api.wallet.invalid' });
    expect(ran.code).toBe(1);
    expect(check(ran.stdout, 'DNS')).toMatch(
      /^FAIL\s+DNS\s+api.wallet.invalid does not resolve \(ENOTFOUND\)\nfix: Check the host/,
    );
    expect(check(ran.stdout, 'clock')).toMatch(/^skip/);
  });

  it('warns when proxy variables are set but unused, with credentials hidden', async () => {
    const ran = await doctor({
      WALLET_BASE_URL: sandbox.url,
      HTTPS_PROXY: 'http://ops:hunter2@127.0.0.1:3128',
    });
    expect(ran.code).toBe(0);
    expect(check(ran.stdout, 'proxy')).toMatch(
      /^warn\s+proxy\s+HTTPS_PROXY=http:\/\/\*\*\*@127.0.0.1:3128\/ set, but the SDK connects directly.*\nfix: If this network needs the proxy, set NODE_USE_ENV_PROXY=1/,
    );
    expect(ran.stdout).not.toContain('hunter2');
  });

  it('fails a key of the right prefix that the SDK refuses, instead of passing it and stopping mid-way', async () => {
    for (const key of ['sk_live_', 'sk_test_4eC39 HqLyjWD', 'sk_test_4eC39\u200bHqLyjWD', 'sk_test_4eC39é']) {
      const ran = await doctor({ WALLET_SECRET_KEY: key, WALLET_BASE_URL: sandbox.url }, '--json');
      expect(ran.code, key).toBe(1);
      const report = JSON.parse(ran.stdout) as { checks: { name: string; status: string; fix?: string }[] };
      const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
      expect(byName.key, key).toMatchObject({
        status: 'fail',
        fix: expect.stringContaining('WALLET_SECRET_KEY'),
      });
      expect(byName['round trip']?.status, key).toBe('skipped');
      expect(byName.clock?.status, key).toBe('skipped');
      expect(ran.stdout + ran.stderr).not.toContain('4eC39');
    }
  });

  it('names what is wrong with a key as the SDK does: quotes an env file kept, a public key', async () => {
    const cases: [string, RegExp][] = [
      ['"sk_test_4eC39HqLyjWD"', /the key is wrapped in quotes: remove them where WALLET_SECRET_KEY is set/],
      ['pk_test_4eC39HqLyjWD', /looks like a public or restricted key/],
    ];
    for (const [key, said] of cases) {
      const ran = await doctor({ WALLET_SECRET_KEY: key, WALLET_BASE_URL: sandbox.url }, '--json');
      expect(ran.code, key).toBe(1);
      const report = JSON.parse(ran.stdout) as { checks: { name: string; detail: string }[] };
      expect(report.checks.find((c) => c.name === 'key')?.detail, key).toMatch(said);
      expect(ran.stdout + ran.stderr).not.toContain('4eC39');
    }
  });

  // The SDK names these (Docker's --env-file keeps a .env file's quotes); 'does not start with sk_' names no fix.
  it.each([
    [
      'quotes around it',
      `"${'sk_test_4eC39HqLyjWD'}"`,
      /wrapped in quotes: remove them where WALLET_SECRET_KEY is set/,
    ],
    ['a whole env file line', 'WALLET_SECRET_KEY=sk_test_4eC39HqLyjWD', /a whole line of an env file/],
  ])("fails a key with %s in the SDK's words, never repeating it", async (_, key, words) => {
    const ran = await doctor({ WALLET_SECRET_KEY: key, WALLET_BASE_URL: sandbox.url }, '--json');
    expect(ran.code).toBe(1);
    const report = JSON.parse(ran.stdout) as { checks: { name: string; status: string; detail: string }[] };
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName.key).toMatchObject({ status: 'fail', detail: expect.stringMatching(words) });
    expect(byName.key?.detail).not.toMatch(/does not start with/);
    expect(ran.stdout + ran.stderr).not.toContain('4eC39');
  });

  // The SDK's fix names where the value is set: the doctor reads WALLET_BASE_URL, not a baseUrl option.
  it.each([
    ['in quotes', '"http://127.0.0.1:4010"', /wrapped in quotes: remove them where WALLET_BASE_URL is set/],
    ['without its scheme', 'localhost:4010', /WALLET_BASE_URL: has no scheme: use http:\/\/localhost:4010/],
  ])('fails a base URL %s, naming WALLET_BASE_URL', async (_, url, words) => {
    const ran = await doctor({ WALLET_BASE_URL: url }, '--json');
    expect(ran.code).toBe(1);
    const report = JSON.parse(ran.stdout) as { checks: { name: string; status: string; detail: string }[] };
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName['base URL']).toMatchObject({ status: 'fail', detail: expect.stringMatching(words) });
    expect(byName['base URL']?.detail).not.toMatch(/baseUrl/);
  });

  it('blames a bad WALLET_LOG on the round trip, not on the key or the base URL, and runs every check', async () => {
    const ran = await doctor({ WALLET_BASE_URL: sandbox.url, WALLET_LOG: 'verbose' }, '--json');
    expect(ran.code).toBe(1);
    const report = JSON.parse(ran.stdout) as { checks: { name: string; status: string; detail: string }[] };
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName.key?.status).toBe('pass');
    expect(byName['base URL']?.status).toBe('pass');
    expect(byName['round trip']).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('WALLET_LOG'),
    });
  });

  it('blames a proxy variable the SDK refuses on the round trip, never on a good key or base URL', async () => {
    // NODE_USE_ENV_PROXY=1: the SDK reads HTTP_PROXY for an http: base URL (the sandbox's) and refuses
    // one without a scheme; the key check's probe (http://127.0.0.1) read it too and failed the key.
    const env = { WALLET_BASE_URL: sandbox.url, NODE_USE_ENV_PROXY: '1', HTTP_PROXY: 'proxy.corp' };
    const ran = await doctor(env, '--json');
    expect(ran.code).toBe(1);
    const report = JSON.parse(ran.stdout) as { checks: { name: string; status: string; detail: string }[] };
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName.key?.status).toBe('pass');
    expect(byName['base URL']?.status).toBe('pass');
    expect(byName['round trip']).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('HTTP_PROXY'),
    });
  });

  it('hides the password of a proxy variable written without a scheme (user:pass@host:port, as curl takes it)', async () => {
    for (const extra of [{}, { NODE_USE_ENV_PROXY: '1' }]) {
      const proxy = { HTTPS_PROXY: 'ops:hunter2@127.0.0.1:3128', HTTP_PROXY: '//ops:hunter2@127.0.0.1:3128' };
      const ran = await doctor({ WALLET_BASE_URL: sandbox.url, ...proxy, ...extra });
      expect(check(ran.stdout, 'proxy')).toContain(
        'HTTPS_PROXY=***@127.0.0.1:3128, HTTP_PROXY=//***@127.0.0.1:3128',
      );
      const json = await doctor({ WALLET_BASE_URL: sandbox.url, ...proxy, ...extra }, '--json');
      expect(ran.stdout + ran.stderr + json.stdout + json.stderr).not.toContain('hunter2');
    }
  });

  it('hides a proxy password holding a #, ? or / (URL cannot read it as a password)', async () => {
    const proxy = {
      HTTPS_PROXY: 'ops:hun#ter2@127.0.0.1:3128',
      HTTP_PROXY: 'http://ops:hun/ter2@127.0.0.1:3128',
      https_proxy: 'ops:hun?ter2@127.0.0.1:3128',
      http_proxy: 'http://ops:123#ter2@127.0.0.1:3128', // URL reads host ops, port 123, the rest a #fragment
    };
    const ran = await doctor({ WALLET_BASE_URL: sandbox.url, ...proxy });
    expect(check(ran.stdout, 'proxy')).toContain('HTTPS_PROXY=***@127.0.0.1:3128');
    expect(check(ran.stdout, 'proxy')).toContain('HTTP_PROXY=http://***@127.0.0.1:3128');
    const json = await doctor({ WALLET_BASE_URL: sandbox.url, ...proxy }, '--json');
    expect(ran.stdout + ran.stderr + json.stdout + json.stderr).not.toContain('ter2');
  });

  it('fails a missing or malformed key and base URL with the fix, and reports JSON with --json', async () => {
    const ran = await wallet(['doctor', '--json'], {
      env: { WALLET_SECRET_KEY: 'pk_test_123', WALLET_BASE_URL: 'http://example.com/v1' },
    });
    expect(ran.code).toBe(1);
    const report = JSON.parse(ran.stdout) as {
      ok: boolean;
      checks: { name: string; status: string; fix?: string }[];
    };
    expect(report.ok).toBe(false);
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
    expect(byName.key).toMatchObject({ status: 'fail', fix: expect.stringContaining('WALLET_SECRET_KEY') });
    expect(byName['base URL']).toMatchObject({ status: 'fail' });
    expect(byName['round trip']?.status).toBe('skipped');
  });
});
