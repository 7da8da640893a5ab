#!/usr/bin/env node
/** `wallet-mcp`: the tools over MCP on stdio, configured by ENV_HELP's variables, failing closed; people read stderr. */
import { Console } from 'node:console';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Wallet, isWalletError, type RedisClientLike } from '@wallet/node';
import { memorySpendLedger, type SpendLedger } from '../spending/ledger.js';
import { ledgerFileOf, sqliteSpendLedger } from '../spending/sqlite-ledger.js';
import { createMcpServer } from './mcp.js';
import { ENV_HELP, readMcpEnv } from './mcp-env.js';
import { redisSpendLedger } from '../spending/redis-ledger.js';

// The SDK logs to console by default, whose debug and info lines go to stdout: the protocol channel.
const logger = new Console({ stdout: process.stderr, stderr: process.stderr });

function fail(message: string, code = 2): never {
  process.stderr.write(`wallet-mcp: ${message}\n`);
  process.exit(code);
}

async function connectRedis(url: string): Promise<{ client: RedisClientLike; close: () => Promise<void> }> {
  let redis: {
    createClient(options: { url: string; disableOfflineQueue: boolean }): {
      connect(): Promise<unknown>;
      on(event: 'error', listener: (error: Error) => void): unknown;
      quit(): Promise<unknown>;
      disconnect(): Promise<unknown>;
      readonly isReady: boolean;
    };
  };
  try {
    // An optional peer: only a fleet sharing limits needs it.
    redis = await import('redis');
  } catch {
    fail("WALLET_MCP_REDIS_URL is set but the 'redis' package is not installed: npm install redis");
  }
  let client: ReturnType<typeof redis.createClient>;
  try {
    // No offline queue: a step the ledger refused (Redis away, its timeout) must not land later,
    // journaling and counting a call never sent, told 'in flight' when the model tries again.
    client = redis.createClient({ url, disableOfflineQueue: true });
  } catch {
    // Its reasons ('Invalid pathname', a bad %-escape) are configuration; the value may hold a password.
    fail(
      'WALLET_MCP_REDIS_URL is not a URL the redis client can read, such as redis://127.0.0.1:6379/0 (a database by number, any password %-encoded; its value is not shown: it may hold a password).',
    );
  }
  // Unheard, 'error' would end the process; until the client reconnects the ledger refuses money calls.
  let said = '';
  client.on('error', (error) => {
    if (error.message !== said) process.stderr.write(`wallet-mcp: redis: ${error.message}\n`);
    said = error.message;
  });
  // Not awaited: a Redis not up yet is retried as a lost one is, while the server serves (the ledger
  // refuses money calls until it answers); awaited, the host's initialize went unanswered for good.
  client.connect().catch((error: unknown) => {
    process.stderr.write(`wallet-mcp: redis: ${error instanceof Error ? error.message : String(error)}\n`);
  });
  // QUIT waits in the client's queue while Redis is away: a stop would never end.
  const close = async (): Promise<void> =>
    void (await (client.isReady ? client.quit() : client.disconnect()));
  return { client: client as unknown as RedisClientLike, close };
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${ENV_HELP}\n`);
    return;
  }
  const env = readMcpEnv(process.env);
  if (!env.ok) fail(`${env.problems.join('\n  ')}\n\n${ENV_HELP}`);
  if (!process.env['WALLET_SECRET_KEY']?.trim()) fail(`WALLET_SECRET_KEY is not set.\n\n${ENV_HELP}`);
  const wallet = new Wallet({ logger });
  if (wallet.mode !== 'test' && !env.allowLive) {
    fail(
      'refusing to start: WALLET_SECRET_KEY is a live key (sk_live_: real money). Set WALLET_MCP_ALLOW_LIVE=1 to serve it, with limits set.',
    );
  }
  const { ok: _ok, redisUrl, ledger: where, timeZone, ...options } = env;
  const zone = timeZone === undefined ? {} : { timeZone };
  let ledger: SpendLedger;
  let closeRedis = async (): Promise<void> => {};
  if (redisUrl !== undefined) {
    const redis = await connectRedis(redisUrl);
    closeRedis = redis.close;
    ledger = redisSpendLedger(redis.client, zone);
  } else if (where === 'memory') ledger = memorySpendLedger(zone);
  else {
    // The ledger's own refusals name library calls (memorySpendLedger()), which no wallet-mcp user can
    // make: this one says what they can set.
    if (process.getBuiltinModule('node:sqlite') === undefined) {
      fail(
        `This Node (${process.version}) has no node:sqlite for wallet-mcp's spend ledger: run it on Node 22.13 or later, or set WALLET_MCP_REDIS_URL to keep the day in Redis. WALLET_MCP_LEDGER=memory is for tests only, and refused with a live key.`,
      );
    }
    const memory = where.path !== undefined && ledgerFileOf(where.path) === undefined;
    if (memory) {
      fail(
        `WALLET_MCP_LEDGER=sqlite:${where.path} opens SQLite in memory, not a file: every restart would count the day from zero and no other process would share it. Set WALLET_MCP_LEDGER=sqlite:/an/absolute/path/spend-ledger.sqlite, or sqlite for the default file (every process on this machine shares it), or WALLET_MCP_REDIS_URL to share the day across machines. WALLET_MCP_LEDGER=memory is for tests only, and refused with a live key.`,
      );
    }
    ledger = sqliteSpendLedger({ ...zone, ...where });
  }
  const server = createMcpServer({ wallet, ledger, ...options });
  const stop = (): void => {
    void Promise.allSettled([server.close(), wallet.close(), closeRedis()]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  await server.connect(new StdioServerTransport());
  const tools = ['resolve_customer', 'get_charge', 'wait_for_charge', ...options.allow].join(', ');
  const kind = redisUrl ? 'ledger in Redis' : `${where === 'memory' ? 'memory' : 'sqlite'} ledger`;
  process.stderr.write(`wallet-mcp: serving ${tools} (${wallet.mode} key, ${kind})\n`);
}

main().catch((error: unknown) => {
  // A ledger that cannot open (ledger_required, time_zone_mismatch) is configuration, like the rest.
  const setup = isWalletError(error) && error.endpoint === undefined;
  fail(error instanceof Error ? error.message : String(error), setup ? 2 : 1);
});
