/**
 * `wallet` as a shell meets it: the command meant for a typo, exit 2 on usage errors and 0 for
 * help, never a key echoed back from a mistyped flag or a file name, and `wallet sandbox`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CLI_BIN, cleanEnv, TEST_KEY, wallet } from './helpers/processes.js';
import { closedPort } from './helpers/servers.js';

describe('wallet usage', () => {
  it('suggests the command meant, exits 2 on usage errors and 0 for help', async () => {
    const typo = await wallet(['refund', 'create']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean refunds?');
    expect((await wallet(['charges', 'verify'])).code).toBe(2);
    expect((await wallet(['reconcile', 'x.csv', '--concurrency', '0'])).code).toBe(2);
    // No command at all: the help, on a usage error's exit code.
    const bare = await wallet([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr + bare.stdout).toContain('Usage: wallet');
    const help = await wallet(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('reconcile');
  });

  it('never prints a key that a mistyped flag or command carried (--apikey=sk_live_…)', async () => {
    for (const args of [
      ['--apikey=sk_live_cli_LEAKED', 'doctor'],
      ['sk_test_cli_LEAKED'],
      ['doctor', '--key=sk_live_cli_LEAKED'],
    ]) {
      const ran = await wallet(args);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stdout + ran.stderr, args.join(' ')).not.toContain('LEAKED');
    }
  });

  it("never prints a key typed where a file goes (the CLI's own usage errors cut it too)", async () => {
    // `wallet reconcile $WALLET_SECRET_KEY`: the file is not found, and its name is the whole key.
    for (const args of [
      ['reconcile', 'sk_live_cli_LEAKED'],
      ['settlements', 'sk_test_cli_LEAKED', '--statement', 's.csv'],
    ]) {
      const ran = await wallet(args);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr, args.join(' ')).toContain('sk_');
      expect(ran.stdout + ran.stderr, args.join(' ')).not.toContain('LEAKED');
    }
  });

  it('refuses a key typed where a reference goes (exit 2): never sent in a request, never printed', async () => {
    // `wallet charges verify $KEY` (arguments swapped in a script, the live key pasted beside a test
    // one): sent, the key would sit in the request's path or body, in every proxy's and server's log.
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(String(req.url));
      req.resume().on('end', () => res.writeHead(404).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url };
      for (const command of [
        ['charges', 'verify'],
        ['charges', 'wait'],
        ['refunds', 'create'],
      ])
        for (const pasted of ['sk_live_51Hx9PastedAsTheReference', TEST_KEY]) {
          const args = ['--json', ...command, pasted];
          const ran = await wallet(command[0] === 'refunds' ? [...args, '--yes'] : args, { env });
          expect(ran.code, args.join(' ')).toBe(2);
          expect(ran.stdout + ran.stderr, args.join(' ')).not.toContain(pasted.slice(8));
        }
      expect(paths).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses an empty reference (charges verify "$REF", the variable unset) with exit 2, never a verdict', async () => {
    // Exit 1 is "not SUCCESS": a script would mark an order unpaid for a variable that was never set.
    const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: 'http://127.0.0.1:9' };
    for (const args of [
      ['charges', 'verify', ''],
      ['charges', 'wait', ' '],
      ['refunds', 'create', '', '--yes'],
    ]) {
      const ran = await wallet(args, { env });
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr, args.join(' ')).toContain('The reference is empty');
    }
  });

  it('refuses an empty --out (--out "$REPORT", the variable unset) before a request or a file (exit 2)', async () => {
    // It was taken as a file named '': settlements verified the whole ledger and then could not write
    // its report (exit 1); reconcile also left a stray .origin in the working directory.
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      req.resume().on('end', () => res.writeHead(404).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'wallet-out-'));
      writeFileSync(join(cwd, 'l.csv'), 'reference,amount,status\nord_1,100,paid\n');
      writeFileSync(join(cwd, 's.csv'), 'date,credit\n2026-11-21,1.00\n');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: url };
      for (const args of [
        ['reconcile', 'l.csv', '--out', ''],
        ['settlements', 'l.csv', '--statement', 's.csv', '--out', ''],
      ]) {
        const ran = await wallet(args, { env, cwd });
        expect(ran.code, args.join(' ')).toBe(2);
        expect(ran.stderr, args.join(' ')).toContain('--out is empty');
      }
      expect(requests).toBe(0);
      expect(readdirSync(cwd).sort()).toEqual(['l.csv', 's.csv']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('with --json, any failure is one JSON value on stdout, a usage error too (exit 2), no key in it', async () => {
    // `out=$(wallet --json …)` then `jq .error.code`: an empty stdout is no answer at all.
    const usage = [
      ['--json', 'charges', 'verify'],
      ['charges', 'verify', '--json'],
      ['--json', 'reconcile', 'missing.csv'],
      ['--json', '--apikey=sk_live_cli_LEAKED', 'doctor'],
      ['--json'],
      ['--json', 'webhooks'],
    ];
    for (const args of usage) {
      const ran = await wallet(args);
      expect(ran.code, args.join(' ')).toBe(2);
      const parsed = JSON.parse(ran.stdout) as { error: { code: string; message: string } };
      expect(parsed.error.code, args.join(' ')).toBe('usage');
      expect(parsed.error.message, args.join(' ')).not.toContain('outputHelp');
      expect(ran.stdout + ran.stderr, args.join(' ')).not.toContain('LEAKED');
    }
    // Not a usage error, nor the SDK's: a report that cannot be written (a full disk), exit 1.
    if (!existsSync('/dev/full')) return;
    const ledger = join(mkdtempSync(join(tmpdir(), 'wallet-json-')), 'l.csv');
    writeFileSync(ledger, 'reference,amount,status\nord_1,100,paid\n');
    const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: await closedPort() };
    const full = await wallet(['--json', 'reconcile', ledger, '--out', '/dev/full', '--retries', '0'], {
      env,
    });
    expect(full.code, full.stderr).toBe(1);
    expect((JSON.parse(full.stdout) as { error: { message: string } }).error.message).toContain('ENOSPC');
    // The shape every JSON error has, `code` included: the system's (ENOSPC) for a failed write.
    expect(JSON.parse(full.stdout)).toMatchObject({ error: { name: 'Error', code: 'ENOSPC' } });
  });

  it('with --json, a failure that is not a usage error never prints a key typed in its place (--out $KEY/)', async () => {
    // A report named with a key pasted in --out fails once opened (exit 1, not a usage error): its
    // message repeats the path, and was printed whole on stderr and in --json's error.
    const dir = mkdtempSync(join(tmpdir(), 'wallet-json-key-'));
    writeFileSync(join(dir, 'l.csv'), 'reference,amount,status\nord_1,100,paid\n');
    const env = { WALLET_SECRET_KEY: TEST_KEY, WALLET_BASE_URL: await closedPort() };
    const ran = await wallet(['--json', 'reconcile', 'l.csv', '--out', 'sk_live_51HxPastedAsReport/'], {
      env,
      cwd: dir,
    });
    expect(ran.code, ran.stderr).toBe(1);
    expect((JSON.parse(ran.stdout) as { error: { message: string } }).error.message).toContain('sk_live_…');
    expect(ran.stdout + ran.stderr).not.toContain('51HxPastedAsReport');
  });

  it('wallet sandbox serves the development server with its own flags', async () => {
    const text = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [CLI_BIN, 'sandbox', '--port', '0', '--fail-rate', '0.1'], {
        env: cleanEnv(),
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        if (out.includes('faults')) child.kill('SIGTERM');
      });
      child.on('close', () => resolve(out));
    });
    expect(text).toMatch(/wallet-sandbox listening on http:\/\/127.0.0.1:\d+/);
    expect(text).toContain('fail rate 0.1');
  });
});
