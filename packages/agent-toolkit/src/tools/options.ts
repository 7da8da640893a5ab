/**
 * `walletTools()` options and their checks: a wrong option is a `ValidationError` naming it, at
 * construction, never a tool that quietly moves more money than meant.
 */
import { ValidationError, type ValidationIssue } from '@wallet/node';
import type { WalletLike } from './context.js';
import type { SpendLedger } from '../spending/ledger.js';
import type { SpendLimits } from '../spending/limits.js';
import { MONEY_TOOLS, type MoneyToolName } from './shapes.js';

/** Options of `walletTools()` (and of `createMcpServer()`). */
export interface WalletToolsOptions {
  /** The client the tools call through. Its key's mode decides whether live rules apply. */
  wallet: WalletLike;
  /**
   * The money-moving tools to add to the read-only ones. Without it the agent can look, not pay.
   * @default []
   */
  allow?: readonly MoneyToolName[];
  /** Hard limits in Kobo. @default {} (no limit: set them) */
  limits?: SpendLimits;
  /**
   * Where the daily totals, the journal and the spent tokens live.
   * @default sqliteSpendLedger() (a file shared by every process on the machine)
   */
  ledger?: SpendLedger;
  /**
   * Whether a money tool answers a preview first and acts only when called again with its
   * `confirmationToken`. `true`/`false` for both, or per tool.
   * @default { refund_charge: true, dispatch_charge: true on a live key, false on a test key }
   */
  confirm?: boolean | Partial<Record<MoneyToolName, boolean>>;
  /** Serve a live (`sk_live_`) key. Without it, a live key is refused. @default false */
  allowLive?: boolean;
  /**
   * The secret confirmation tokens are signed with (at least 32 characters or bytes). A fleet that
   * confirms on another process than the one that previewed shares one.
   * @default 32 random bytes per process
   */
  confirmSecret?: string | Uint8Array;
  /** How long a confirmation token lives, ms. @default 300000 (5 minutes) */
  confirmTtl?: number;
  /** The clock, ms since the epoch. @default Date.now @internal */
  now?: () => number;
}

const LIMIT_KEYS = ['perCharge', 'perRefund', 'dailyCharges', 'dailyRefunds'] as const;
const OPTION_KEYS = [
  'wallet',
  'allow',
  'limits',
  'ledger',
  'confirm',
  'allowLive',
  'confirmSecret',
  'confirmTtl',
  'now',
];

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}

function unknownKeys(value: object, known: readonly string[], path: string, issues: ValidationIssue[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      issues.push({ path: `${path}${key}`, message: `is not an option (known: ${known.join(', ')})` });
  }
}

function checkLimits(limits: unknown, issues: ValidationIssue[]): void {
  if (typeof limits !== 'object' || limits === null) {
    issues.push({ path: 'limits', message: `must be an object of Kobo amounts, not ${show(limits)}` });
    return;
  }
  unknownKeys(limits, LIMIT_KEYS, 'limits.', issues);
  for (const key of LIMIT_KEYS) {
    const value = (limits as Record<string, unknown>)[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      issues.push({
        path: `limits.${key}`,
        message: `must be a whole number of Kobo, 0 or more, not ${show(value)}`,
      });
    }
  }
}

function checkConfirm(confirm: unknown, issues: ValidationIssue[]): void {
  if (confirm === undefined || typeof confirm === 'boolean') return;
  if (typeof confirm !== 'object' || confirm === null) {
    issues.push({
      path: 'confirm',
      message: `must be true, false or { dispatch_charge?, refund_charge? }, not ${show(confirm)}`,
    });
    return;
  }
  unknownKeys(confirm, MONEY_TOOLS, 'confirm.', issues);
  for (const [key, value] of Object.entries(confirm)) {
    if (typeof value !== 'boolean' && value !== undefined)
      issues.push({ path: `confirm.${key}`, message: 'must be true or false' });
  }
}

/** Every problem with `options` at once, as one `ValidationError`. @internal */
export function checkToolsOptions(options: WalletToolsOptions): void {
  const issues: ValidationIssue[] = [];
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError('walletTools options', [
      { path: 'options', message: `must be an object, not ${show(options)}` },
    ]);
  }
  unknownKeys(options, OPTION_KEYS, '', issues);
  const wallet = options.wallet as Partial<WalletLike> | undefined;
  if (
    typeof wallet !== 'object' ||
    wallet === null ||
    typeof wallet.charges !== 'object' ||
    typeof wallet.refunds !== 'object'
  ) {
    issues.push({ path: 'wallet', message: 'must be a Wallet client: new Wallet({ apiKey, baseUrl })' });
  }
  const allow: unknown = options.allow;
  if (allow !== undefined) {
    if (!Array.isArray(allow))
      issues.push({ path: 'allow', message: `must be an array of tool names, not ${show(allow)}` });
    else {
      for (const name of allow as unknown[]) {
        if (!MONEY_TOOLS.includes(name as MoneyToolName)) {
          issues.push({
            path: 'allow',
            message: `${show(name)} is not a money tool: allow takes 'dispatch_charge' and 'refund_charge' (the others are always there)`,
          });
        }
      }
    }
  }
  if (options.limits !== undefined) checkLimits(options.limits, issues);
  checkConfirm(options.confirm, issues);
  if (options.allowLive !== undefined && typeof options.allowLive !== 'boolean') {
    issues.push({ path: 'allowLive', message: 'must be true or false' });
  }
  const secret: unknown = options.confirmSecret;
  if (
    secret !== undefined &&
    !((typeof secret === 'string' || secret instanceof Uint8Array) && secret.length >= 32)
  ) {
    issues.push({ path: 'confirmSecret', message: 'must be a string or bytes of at least 32 characters' });
  }
  const ttl: unknown = options.confirmTtl;
  if (
    ttl !== undefined &&
    !(Number.isSafeInteger(ttl) && (ttl as number) >= 1000 && (ttl as number) <= 86_400_000)
  ) {
    issues.push({ path: 'confirmTtl', message: `must be ms between 1000 and 86400000, not ${show(ttl)}` });
  }
  const ledger = options.ledger as Partial<SpendLedger> | undefined;
  if (
    ledger !== undefined &&
    (typeof ledger !== 'object' ||
      ledger === null ||
      typeof ledger.begin !== 'function' ||
      typeof ledger.journal !== 'function')
  ) {
    issues.push({
      path: 'ledger',
      message: 'must be a spend ledger: sqliteSpendLedger(), redisSpendLedger(client) or memorySpendLedger()',
    });
  }
  if (issues.length > 0) throw new ValidationError('walletTools options', issues);
}
