/** `walletTools()` options, checked at construction (a `ValidationError` names each), and the tools' context. */
import {
  ValidationError,
  type ChargeDispatch,
  type DispatchParams,
  type Refund,
  type RefundParams,
  type RequestOptions,
  type ResolvedCustomer,
  type ResolveHandleParams,
  type Transaction,
  type ValidationIssue,
  type WaitForOutcomeOptions,
} from '@wallet/node';
import { createConfirmer, type Confirmer } from '../spending/confirm.js';
import type { SpendLedger } from '../spending/ledger.js';
import type { SpendLimits } from '../spending/limits.js';
import { sqliteSpendLedger } from '../spending/sqlite-ledger.js';
import { isMoneyTool, MONEY_TOOLS, type MoneyToolName } from './shapes.js';

/** The part of a `Wallet` the tools use, by shape: a CommonJS `Wallet` (from .d.cts) must match too. */
export interface WalletLike {
  /** `wallet.charges`. */
  readonly charges: {
    resolveHandle(params: ResolveHandleParams, options?: RequestOptions): PromiseLike<ResolvedCustomer>;
    dispatch(params: DispatchParams, options?: RequestOptions): PromiseLike<ChargeDispatch>;
    verify(reference: string, options?: RequestOptions): PromiseLike<Transaction>;
    waitForOutcome(reference: string, options?: WaitForOutcomeOptions): PromiseLike<Transaction>;
  };
  /** `wallet.refunds`. */
  readonly refunds: { create(params: RefundParams, options?: RequestOptions): PromiseLike<Refund> };
  /** `wallet.mode`: the toolkit refuses a live key without `allowLive: true`. */
  readonly mode: 'live' | 'test';
}

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

/** What the tools run with, settled by {@link toolContext}. @internal */
export interface ToolContext {
  wallet: WalletLike;
  limits: SpendLimits;
  ledger: SpendLedger;
  confirmer: Confirmer;
  /** Anything but a test key counts as live: a mode that cannot be read is not assumed harmless. */
  live: boolean;
  allowLive: boolean;
  confirm: Record<MoneyToolName, boolean>;
  /** The money tools this agent was given: advice names only those. */
  allow: ReadonlySet<MoneyToolName>;
  now: () => number;
}

/** Why a live key is refused, at construction and on every call. @internal */
export const LIVE_REFUSED =
  'This agent toolkit was given a live key (sk_live_: real money) without allowLive: true. Use an sk_test_ key, or pass allowLive: true once limits and confirmation are set.';

const LIMIT_KEYS = ['perCharge', 'perRefund', 'dailyCharges', 'dailyRefunds'];
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const isSecret = (value: unknown): boolean =>
  (typeof value === 'string' || value instanceof Uint8Array) && value.length >= 32;
const isLedger = (value: unknown): boolean =>
  isObject(value) && typeof value['begin'] === 'function' && typeof value['journal'] === 'function';

// Every problem at once, as one ValidationError.
function checkOptions(options: WalletToolsOptions): void {
  if (!isObject(options)) {
    throw new ValidationError('walletTools options', [
      { path: 'options', message: `must be an object, not ${show(options)}` },
    ]);
  }
  const issues: ValidationIssue[] = [];
  const problem = (path: string, message: string): void => void issues.push({ path, message });
  const unknownKeys = (value: object, known: readonly string[], path: string): void => {
    for (const key of Object.keys(value))
      if (!known.includes(key)) problem(`${path}${key}`, `is not an option (known: ${known.join(', ')})`);
  };
  unknownKeys(options, OPTION_KEYS, '');
  const { wallet, allow, limits, confirm, allowLive, confirmSecret, confirmTtl: ttl, ledger } = options;
  if (!isObject(wallet) || !isObject(wallet.charges) || !isObject(wallet.refunds))
    problem('wallet', 'must be a Wallet client: new Wallet({ apiKey, baseUrl })');
  if (allow !== undefined && !Array.isArray(allow))
    problem('allow', `must be an array of tool names, not ${show(allow)}`);
  for (const name of Array.isArray(allow) ? (allow as unknown[]) : []) {
    if (!isMoneyTool(name))
      problem(
        'allow',
        `${show(name)} is not a money tool: allow takes 'dispatch_charge' and 'refund_charge' (the others are always there)`,
      );
  }
  if (limits !== undefined && !isObject(limits))
    problem('limits', `must be an object of Kobo amounts, not ${show(limits)}`);
  else if (limits !== undefined) {
    unknownKeys(limits, LIMIT_KEYS, 'limits.');
    for (const key of LIMIT_KEYS) {
      const value = limits[key];
      if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0))
        problem(`limits.${key}`, `must be a whole number of Kobo, 0 or more, not ${show(value)}`);
    }
  }
  if (confirm !== undefined && typeof confirm !== 'boolean' && !isObject(confirm))
    problem('confirm', `must be true, false or { dispatch_charge?, refund_charge? }, not ${show(confirm)}`);
  else if (isObject(confirm)) {
    unknownKeys(confirm, MONEY_TOOLS, 'confirm.');
    for (const [key, value] of Object.entries(confirm))
      if (typeof value !== 'boolean' && value !== undefined)
        problem(`confirm.${key}`, 'must be true or false');
  }
  if (allowLive !== undefined && typeof allowLive !== 'boolean')
    problem('allowLive', 'must be true or false');
  if (confirmSecret !== undefined && !isSecret(confirmSecret))
    problem('confirmSecret', 'must be a string or bytes of at least 32 characters');
  if (ttl !== undefined && !(Number.isSafeInteger(ttl) && ttl >= 1000 && ttl <= 86_400_000))
    problem('confirmTtl', `must be ms between 1000 and 86400000, not ${show(ttl)}`);
  if (ledger !== undefined && !isLedger(ledger))
    problem(
      'ledger',
      'must be a spend ledger: sqliteSpendLedger(), redisSpendLedger(client) or memorySpendLedger()',
    );
  if (issues.length > 0) throw new ValidationError('walletTools options', issues);
}

/** Checks `options` and settles what the tools run with. @internal */
export function toolContext(options: WalletToolsOptions): ToolContext {
  checkOptions(options);
  const { wallet, confirm: given, confirmSecret: secret, confirmTtl: ttlMs } = options;
  const now = options.now ?? Date.now;
  const live = wallet.mode !== 'test';
  const allowLive = options.allowLive ?? false;
  if (live && !allowLive) {
    throw new ValidationError('walletTools options', [
      { path: 'allowLive', message: `is not set. ${LIVE_REFUSED}` },
    ]);
  }
  const confirmFor = (tool: MoneyToolName, byDefault: boolean): boolean =>
    typeof given === 'boolean' ? given : (given?.[tool] ?? byDefault);
  return {
    wallet,
    limits: { ...options.limits },
    ledger: options.ledger ?? sqliteSpendLedger({ now }),
    confirmer: createConfirmer({
      now,
      ...(secret === undefined ? {} : { secret }),
      ...(ttlMs === undefined ? {} : { ttlMs }),
    }),
    live,
    allowLive,
    confirm: {
      dispatch_charge: confirmFor('dispatch_charge', live),
      refund_charge: confirmFor('refund_charge', true),
    },
    allow: new Set(options.allow ?? []),
    now,
  };
}
