/** The `wallet-mcp` bin's configuration from its environment: every problem at once, for the host's log. */
import { isAbsolute, resolve } from 'node:path';
import { closest } from '@wallet/node/workspace';
import { ledgerFileOf } from '../spending/sqlite-ledger.js';
import type { SpendLimits } from '../spending/limits.js';
import { isMoneyTool, type MoneyToolName } from '../tools/shapes.js';

/** What the bin runs with, or why it cannot start. @internal */
export type McpEnv =
  | { ok: false; problems: string[] }
  | {
      ok: true;
      allow: MoneyToolName[];
      limits: SpendLimits;
      allowLive: boolean;
      confirm?: Partial<Record<MoneyToolName, boolean>>;
      confirmSecret?: string;
      confirmTtl?: number;
      redisUrl: string | undefined;
      /** `memory`, or SQLite at `path` (default: the default path). */
      ledger: 'memory' | { path?: string };
      timeZone: string | undefined;
    };

/** The variables the bin reads, with what each means (the bin's help and the README list them). @internal */
export const ENV_HELP = `wallet-mcp: Wallet's payment tools for AI agents over MCP (stdio).

  WALLET_SECRET_KEY            sk_test_... (an sk_live_ key needs WALLET_MCP_ALLOW_LIVE=1)
  WALLET_BASE_URL              the service's address
  WALLET_MCP_ALLOW             money tools to serve: dispatch_charge,refund_charge (default: none)
  WALLET_MCP_LIMIT_PER_CHARGE  largest charge, Kobo        WALLET_MCP_LIMIT_DAILY_CHARGES  per day, Kobo
  WALLET_MCP_LIMIT_PER_REFUND  largest refund, Kobo        WALLET_MCP_LIMIT_DAILY_REFUNDS  per day, Kobo
  WALLET_MCP_CONFIRM           tools that answer a preview first, or 'none'
                               (default: refund_charge, and dispatch_charge on a live key)
  WALLET_MCP_LEDGER            where the day's totals and journal live: sqlite (default, a file
                               every process on this machine shares), sqlite:PATH (absolute), or
                               memory (forgets the day on restart: tests only)
  WALLET_MCP_REDIS_URL         share limits, journal and tokens across machines (needs 'redis')
  WALLET_MCP_TIME_ZONE         the merchant's day for daily limits (default Africa/Lagos)
  WALLET_MCP_CONFIRM_SECRET    shared token secret for a fleet (32+ characters)
  WALLET_MCP_CONFIRM_TTL       token life, seconds (default 300)
  WALLET_MCP_ALLOW_LIVE=1      serve a live key (all four limits must be set)

Every WALLET_MCP_ variable must be one of these and not empty.`;

const LIMITS = {
  WALLET_MCP_LIMIT_PER_CHARGE: 'perCharge',
  WALLET_MCP_LIMIT_PER_REFUND: 'perRefund',
  WALLET_MCP_LIMIT_DAILY_CHARGES: 'dailyCharges',
  WALLET_MCP_LIMIT_DAILY_REFUNDS: 'dailyRefunds',
} as const;

// In this order: a near miss is steered to ALLOW before ALLOW_LIVE, the live-key switch (the help lists them all: a test).
const KNOWN = [
  'WALLET_MCP_ALLOW',
  ...Object.keys(LIMITS),
  'WALLET_MCP_CONFIRM',
  'WALLET_MCP_LEDGER',
  'WALLET_MCP_REDIS_URL',
  'WALLET_MCP_TIME_ZONE',
  'WALLET_MCP_CONFIRM_SECRET',
  'WALLET_MCP_CONFIRM_TTL',
  'WALLET_MCP_ALLOW_LIVE',
];

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

/** Reads the bin's variables from `env`. Never throws. @internal */
export function readMcpEnv(env: Record<string, string | undefined>): McpEnv {
  const problems: string[] = [];
  const text = (name: string): string | undefined => env[name]?.trim() || undefined;
  for (const [name, value] of Object.entries(env)) {
    // Any letter case: a host's config written in lower case must not drop a limit silently.
    if (!name.toUpperCase().startsWith('WALLET_MCP_')) continue;
    if (!KNOWN.includes(name)) {
      const guess = closest(name, KNOWN);
      problems.push(`${name} is not a wallet-mcp variable${guess ? `: did you mean ${guess}?` : '.'}`);
    } else if (!value?.trim()) problems.push(`${name} is set but empty: give it a value, or unset it.`);
  }
  const allow = list(env['WALLET_MCP_ALLOW']);
  for (const name of allow.filter((name) => !isMoneyTool(name)))
    problems.push(`WALLET_MCP_ALLOW: '${name}' is not a money tool (dispatch_charge, refund_charge).`);
  const limits: SpendLimits = {};
  for (const [variable, key] of Object.entries(LIMITS)) {
    const raw = text(variable);
    if (raw === undefined) continue;
    if (/^\d+$/.test(raw) && Number.isSafeInteger(Number(raw))) limits[key] = Number(raw);
    else problems.push(`${variable} must be a whole number of Kobo (got '${raw}'); ₦5,000 is 500000.`);
  }
  const flag = text('WALLET_MCP_ALLOW_LIVE');
  if (flag !== undefined && flag !== '1' && flag !== '0')
    problems.push(`WALLET_MCP_ALLOW_LIVE must be 1 or 0 (got '${flag}').`);
  let confirm: Partial<Record<MoneyToolName, boolean>> | undefined;
  const rawConfirm = env['WALLET_MCP_CONFIRM']?.trim();
  if (rawConfirm !== undefined) {
    const named = rawConfirm === 'none' ? [] : list(rawConfirm);
    // Only 'none' turns confirmation off: a value that names nothing (',') is a mistake.
    if (named.length === 0 && rawConfirm !== 'none' && rawConfirm !== '')
      problems.push(
        "WALLET_MCP_CONFIRM names no tool: list dispatch_charge and/or refund_charge, or write 'none'.",
      );
    for (const name of named.filter((name) => !isMoneyTool(name)))
      problems.push(
        `WALLET_MCP_CONFIRM: '${name}' is not a money tool (dispatch_charge, refund_charge, or 'none').`,
      );
    confirm = {
      dispatch_charge: named.includes('dispatch_charge'),
      refund_charge: named.includes('refund_charge'),
    };
  }
  const ttl = text('WALLET_MCP_CONFIRM_TTL');
  if (ttl !== undefined && !(/^\d+$/.test(ttl) && Number(ttl) >= 1 && Number(ttl) <= 86_400))
    problems.push(`WALLET_MCP_CONFIRM_TTL must be seconds from 1 to 86400 (got '${ttl}').`);
  const ledgerRaw = text('WALLET_MCP_LEDGER') ?? 'sqlite';
  const path = /^sqlite:(.+)$/s.exec(ledgerRaw)?.[1];
  const ledger = ledgerRaw === 'memory' ? 'memory' : path === undefined ? {} : { path };
  if (ledgerRaw !== 'memory' && ledgerRaw !== 'sqlite' && path === undefined)
    problems.push(`WALLET_MCP_LEDGER must be sqlite, sqlite:PATH or memory (got '${ledgerRaw}').`);
  // A host starts the bin from a folder of its choosing: a relative file would move with it.
  const file = path === undefined ? undefined : ledgerFileOf(path);
  if (file !== undefined && !isAbsolute(file))
    problems.push(
      `WALLET_MCP_LEDGER=sqlite:${path} is a relative path: a host starts wallet-mcp from a folder of its own choosing, and from another one it would open another file and count the day from zero. Give an absolute one, such as WALLET_MCP_LEDGER=sqlite:${resolve(file)}, or sqlite for the default file.`,
    );
  // The scheme here, with the other variables (the client's "Invalid URL" named none); what the client
  // cannot read beyond it is caught at start (mcp-bin).
  const redisUrl = text('WALLET_MCP_REDIS_URL');
  // unix: is the client's URL of a socket (unix:///run/redis.sock): a client too old for it is refused at start.
  if (redisUrl !== undefined && !/^(rediss?|unix):$/.test(protocolOf(redisUrl)))
    problems.push(
      'WALLET_MCP_REDIS_URL is not a redis://, rediss:// or unix: URL, such as redis://127.0.0.1:6379/0 (its value is not shown: it may hold a password).',
    );
  if (redisUrl && text('WALLET_MCP_LEDGER'))
    problems.push('WALLET_MCP_LEDGER and WALLET_MCP_REDIS_URL are both set: choose one ledger.');
  const missing = Object.keys(LIMITS).filter((name) => !text(name));
  if (flag === '1' && missing.length > 0)
    problems.push(`A live key needs all four limits; missing: ${missing.join(', ')}.`);
  // A day's totals must outlive the process: a restart of the host would start the day at zero.
  if (flag === '1' && ledger === 'memory')
    problems.push(
      'A live key needs a ledger that outlives the process: WALLET_MCP_LEDGER=memory forgets the day ' +
        'on every restart. Use sqlite (the default), sqlite:PATH or WALLET_MCP_REDIS_URL.',
    );
  if (problems.length > 0) return { ok: false, problems };
  const secret = text('WALLET_MCP_CONFIRM_SECRET');
  return {
    ok: true,
    allow: allow as MoneyToolName[],
    limits,
    allowLive: flag === '1',
    ...(confirm === undefined ? {} : { confirm }),
    ...(secret === undefined ? {} : { confirmSecret: secret }),
    ...(ttl === undefined ? {} : { confirmTtl: Number(ttl) * 1000 }),
    redisUrl,
    ledger,
    timeZone: text('WALLET_MCP_TIME_ZONE'),
  };
}
