/**
 * `wallet-mcp` reads its environment failing closed: a variable a merchant meant for it, in any
 * letter case, is known or refused, and a value that names nothing never turns a guard off.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { ENV_HELP, readMcpEnv } from '../../packages/agent-toolkit/src/hosts/mcp-env.js';

describe('readMcpEnv', () => {
  it('reads every WALLET_MCP_ variable its help lists, and steers a near miss away from the live-key switch', () => {
    const listed = [...new Set(ENV_HELP.match(/WALLET_MCP_[A-Z_]+/g))];
    expect(listed).toHaveLength(12);
    for (const name of listed) {
      const env = readMcpEnv({ [name]: '1' });
      const problems = env.ok ? [] : env.problems;
      expect(problems.join('\n'), name).not.toContain('is not a wallet-mcp variable');
    }
    expect(readMcpEnv({ WALLET_MCP_XYZ: '1' })).toEqual({
      ok: false,
      problems: ['WALLET_MCP_XYZ is not a wallet-mcp variable: did you mean WALLET_MCP_ALLOW?'],
    });
  });

  it('refuses a variable in the wrong letter case rather than run without the limit it meant', () => {
    const env = readMcpEnv({ wallet_mcp_limit_daily_refunds: '500000' });
    expect(env).toEqual({
      ok: false,
      problems: [
        'wallet_mcp_limit_daily_refunds is not a wallet-mcp variable: did you mean WALLET_MCP_LIMIT_DAILY_REFUNDS?',
      ],
    });
  });

  it('refuses a WALLET_MCP_CONFIRM that names no tool, rather than turn confirmation off', () => {
    const env = readMcpEnv({ WALLET_MCP_CONFIRM: ' , ' });
    expect(env.ok).toBe(false);
    expect(env.ok ? [] : env.problems).toEqual([
      "WALLET_MCP_CONFIRM names no tool: list dispatch_charge and/or refund_charge, or write 'none'.",
    ]);
    expect(readMcpEnv({ WALLET_MCP_CONFIRM: 'none' })).toMatchObject({
      ok: true,
      confirm: { dispatch_charge: false, refund_charge: false },
    });
  });

  it('refuses a WALLET_MCP_REDIS_URL that is no redis URL, naming the variable and never its value (a password)', () => {
    for (const url of ['localhost:6379', 'http://127.0.0.1:6379', 'redis://:s3cret@127.0.0.1:port']) {
      const env = readMcpEnv({ WALLET_MCP_REDIS_URL: url });
      expect(env.ok, url).toBe(false);
      const said = env.ok ? '' : env.problems.join('\n');
      expect(said).toContain('WALLET_MCP_REDIS_URL is not a redis://, rediss:// or unix: URL');
      expect(said).not.toContain('s3cret');
    }
    // unix: is the redis client's own URL of a socket (redis 5 and later), accepted before the check came.
    for (const url of [
      'redis://127.0.0.1:6379/3',
      'rediss://agent:s3cret@redis.internal:6380',
      'unix:///run/redis/redis.sock?db=2',
    ]) {
      expect(readMcpEnv({ WALLET_MCP_REDIS_URL: url }), url).toMatchObject({ ok: true, redisUrl: url });
    }
  });

  it('refuses a live key on the memory ledger, whose daily totals a restart would reset', () => {
    const live = {
      WALLET_MCP_ALLOW: 'dispatch_charge,refund_charge',
      WALLET_MCP_ALLOW_LIVE: '1',
      WALLET_MCP_LIMIT_PER_CHARGE: '100000',
      WALLET_MCP_LIMIT_PER_REFUND: '100000',
      WALLET_MCP_LIMIT_DAILY_CHARGES: '500000',
      WALLET_MCP_LIMIT_DAILY_REFUNDS: '500000',
    };
    const memory = readMcpEnv({ ...live, WALLET_MCP_LEDGER: 'memory' });
    expect(memory.ok).toBe(false);
    expect(memory.ok ? [] : memory.problems).toEqual([
      expect.stringContaining('A live key needs a ledger that outlives the process'),
    ]);
    expect(readMcpEnv({ ...live, WALLET_MCP_LEDGER: 'sqlite' })).toMatchObject({ ok: true, allowLive: true });
    expect(readMcpEnv({ WALLET_MCP_LEDGER: 'memory' })).toMatchObject({ ok: true });
  });

  it('refuses a relative sqlite:PATH, which a host starting it from another folder would read as another file', () => {
    for (const path of ['spend-ledger.sqlite', './state/ledger.sqlite', 'file:ledger.sqlite']) {
      const env = readMcpEnv({ WALLET_MCP_LEDGER: `sqlite:${path}` });
      expect(env.ok, path).toBe(false);
      expect(env.ok ? [] : env.problems, path).toEqual([
        expect.stringContaining(`sqlite:${join(process.cwd(), path.replace(/^file:/, ''))}`),
      ]);
    }
    const absolute = join(process.cwd(), 'spend-ledger.sqlite');
    expect(readMcpEnv({ WALLET_MCP_LEDGER: `sqlite:${absolute}` })).toMatchObject({
      ok: true,
      ledger: { path: absolute },
    });
  });

  it('judges sqlite:file: URIs as SQLite does: FILE:/abs and MODE=memory name relative files, refused', () => {
    const absolute = join(process.cwd(), 'spend-ledger.sqlite');
    for (const path of [`FILE:${absolute}`, 'file:ledger.sqlite?MODE=memory']) {
      const env = readMcpEnv({ WALLET_MCP_LEDGER: `sqlite:${path}` });
      expect(env.ok ? [] : env.problems, path).toEqual([expect.stringContaining('is a relative path')]);
    }
    expect(readMcpEnv({ WALLET_MCP_LEDGER: `sqlite:file:${absolute}` })).toMatchObject({ ok: true });
  });
});
