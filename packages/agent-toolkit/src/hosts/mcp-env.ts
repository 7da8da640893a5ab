/**
 * The `wallet-mcp` bin's configuration, from the environment an MCP host starts it with. Parsed
 * in one place, every problem said at once, so a host's log shows why the server did not start.
 */
import type { SpendLimits } from '../spending/limits.js';
import type { MoneyToolName } from '../tools/shapes.js';

/** What the bin runs with, or why it cannot start. @internal */
export type McpEnv =
  | { ok: false; problems: string[] }
  | {
      ok: true;
      allow: MoneyToolName[];
      limits: SpendLimits;
      allowLive: boolean;
      confirm: Partial<Record<MoneyToolName, boolean>> | undefined;
      redisUrl: string | undefined;
      timeZone: string | undefined;
      confirmSecret: string | undefined;
      confirmTtl: number | undefined;
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
  WALLET_MCP_REDIS_URL         share limits and tokens across processes (needs the 'redis' package)
  WALLET_MCP_TIME_ZONE         the merchant's day for daily limits (default Africa/Lagos)
  WALLET_MCP_CONFIRM_SECRET    shared token secret for a fleet (32+ characters)
  WALLET_MCP_CONFIRM_TTL       token life, seconds (default 300)
  WALLET_MCP_ALLOW_LIVE=1      serve a live key`;

const MONEY: readonly string[] = ['dispatch_charge', 'refund_charge'];
const LIMITS: Record<string, keyof SpendLimits> = {
  WALLET_MCP_LIMIT_PER_CHARGE: 'perCharge',
  WALLET_MCP_LIMIT_PER_REFUND: 'perRefund',
  WALLET_MCP_LIMIT_DAILY_CHARGES: 'dailyCharges',
  WALLET_MCP_LIMIT_DAILY_REFUNDS: 'dailyRefunds',
};

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Reads the bin's variables from `env`. Never throws. @internal */
export function readMcpEnv(env: Record<string, string | undefined>): McpEnv {
  const problems: string[] = [];
  const allow = list(env['WALLET_MCP_ALLOW']);
  for (const name of allow) {
    if (!MONEY.includes(name))
      problems.push(`WALLET_MCP_ALLOW: '${name}' is not a money tool (dispatch_charge, refund_charge).`);
  }
  const limits: SpendLimits = {};
  for (const [variable, key] of Object.entries(LIMITS)) {
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === '') continue;
    if (/^\d+$/.test(raw) && Number.isSafeInteger(Number(raw))) limits[key] = Number(raw);
    else problems.push(`${variable} must be a whole number of Kobo (got '${raw}'); ₦5,000 is 500000.`);
  }
  const flag = env['WALLET_MCP_ALLOW_LIVE']?.trim();
  if (flag !== undefined && flag !== '' && flag !== '1' && flag !== '0') {
    problems.push(`WALLET_MCP_ALLOW_LIVE must be 1 or 0 (got '${flag}').`);
  }
  let confirm: Partial<Record<MoneyToolName, boolean>> | undefined;
  const rawConfirm = env['WALLET_MCP_CONFIRM'];
  if (rawConfirm !== undefined) {
    const named = rawConfirm.trim() === 'none' ? [] : list(rawConfirm);
    for (const name of named) {
      if (!MONEY.includes(name))
        problems.push(
          `WALLET_MCP_CONFIRM: '${name}' is not a money tool (dispatch_charge, refund_charge, or 'none').`,
        );
    }
    confirm = {
      dispatch_charge: named.includes('dispatch_charge'),
      refund_charge: named.includes('refund_charge'),
    };
  }
  const ttlRaw = env['WALLET_MCP_CONFIRM_TTL']?.trim();
  let confirmTtl: number | undefined;
  if (ttlRaw !== undefined && ttlRaw !== '') {
    if (/^\d+$/.test(ttlRaw) && Number(ttlRaw) >= 1 && Number(ttlRaw) <= 86_400)
      confirmTtl = Number(ttlRaw) * 1000;
    else problems.push(`WALLET_MCP_CONFIRM_TTL must be seconds from 1 to 86400 (got '${ttlRaw}').`);
  }
  if (problems.length > 0) return { ok: false, problems };
  const text = (name: string): string | undefined => (env[name]?.trim() ? env[name].trim() : undefined);
  return {
    ok: true,
    allow: allow as MoneyToolName[],
    limits,
    allowLive: flag === '1',
    confirm,
    redisUrl: text('WALLET_MCP_REDIS_URL'),
    timeZone: text('WALLET_MCP_TIME_ZONE'),
    confirmSecret: text('WALLET_MCP_CONFIRM_SECRET'),
    confirmTtl,
  };
}
