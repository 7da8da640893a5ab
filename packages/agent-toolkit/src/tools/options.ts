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
import { checkOptions, readOptions, type OptionRule } from '@wallet/node/workspace';
import { createConfirmer, type Confirmer } from '../spending/confirm.js';
import type { SpendLedger } from '../spending/ledger.js';
import type { SpendLimits } from '../spending/limits.js';
import { sqliteSpendLedger } from '../spending/sqlite-ledger.js';
import { isMoneyTool, type MoneyToolName } from './shapes.js';
import type { ToolResult } from '../answers/report.js';

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
  /** The money tools to add to the read-only ones; without them the agent can look, not pay. @default [] */
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
  confirm: Record<MoneyToolName, boolean>;
  /** The money tools this agent was given: advice names only those. */
  allow: ReadonlySet<MoneyToolName>;
  now: () => number;
}

/** A tool's run: its checked arguments, and apart from them a money tool's confirmationToken and the host's call id. @internal */
export type ToolRun = (
  ctx: ToolContext,
  args: Record<string, unknown>,
  token: string | undefined,
  callId?: string,
) => Promise<ToolResult>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}

// Names the known options; the SDK's checker adds a "did you mean" when one is close.
const known = (rules: object): string => `an option (known: ${Object.keys(rules).join(', ')})`;
const trueOrFalse: OptionRule = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false');
const kobo: OptionRule = (value) =>
  Number.isSafeInteger(value) && (value as number) >= 0
    ? undefined
    : `must be a whole number of Kobo, 0 or more, not ${show(value)}`;
const LIMIT_RULES = { perCharge: kobo, perRefund: kobo, dailyCharges: kobo, dailyRefunds: kobo };
const CONFIRM_RULES = { dispatch_charge: trueOrFalse, refund_charge: trueOrFalse };
// A misspelt limit is named before any wrong amount.
const unknownFirst = (issue: ValidationIssue): number =>
  Object.hasOwn(LIMIT_RULES, issue.path.slice('limits.'.length)) ? 1 : 0;

const RULES: Readonly<Record<string, OptionRule>> = {
  wallet: (wallet) =>
    isObject(wallet) && isObject(wallet['charges']) && isObject(wallet['refunds'])
      ? undefined
      : 'must be a Wallet client: new Wallet({ apiKey, baseUrl })',
  allow: (allow) =>
    Array.isArray(allow)
      ? allow
          .filter((name) => !isMoneyTool(name))
          .map((name) => ({
            path: 'allow',
            message: `${show(name)} is not a money tool: allow takes 'dispatch_charge' and 'refund_charge' (the others are always there)`,
          }))
      : `must be an array of tool names, not ${show(allow)}`,
  limits: (limits, path) =>
    isObject(limits)
      ? checkOptions(limits, LIMIT_RULES, path, known(LIMIT_RULES)).sort(
          (a, b) => unknownFirst(a) - unknownFirst(b),
        )
      : `must be an object of Kobo amounts, not ${show(limits)}`,
  ledger: (ledger) =>
    isObject(ledger) && typeof ledger['begin'] === 'function' && typeof ledger['journal'] === 'function'
      ? undefined
      : 'must be a spend ledger: sqliteSpendLedger(), redisSpendLedger(client) or memorySpendLedger()',
  confirm: (confirm, path) =>
    typeof confirm === 'boolean'
      ? undefined
      : isObject(confirm)
        ? checkOptions(confirm, CONFIRM_RULES, path, known(CONFIRM_RULES))
        : `must be true, false or { dispatch_charge?, refund_charge? }, not ${show(confirm)}`,
  allowLive: trueOrFalse,
  confirmSecret: (secret) =>
    (typeof secret === 'string' || secret instanceof Uint8Array) && secret.length >= 32
      ? undefined
      : 'must be a string or bytes of at least 32 characters',
  confirmTtl: (ttl) =>
    Number.isSafeInteger(ttl) && (ttl as number) >= 1000 && (ttl as number) <= 86_400_000
      ? undefined
      : `must be ms between 1000 and 86400000, not ${show(ttl)}`,
  now: () => undefined,
};

const NESTED = { limits: LIMIT_RULES, confirm: CONFIRM_RULES };

/** `given` read once (getters, class instances, prototypes), a host's own options checked by `host`'s rules (errors name `caller`): the copy is what runs. @internal */
export function readToolOptions<T extends WalletToolsOptions>(
  given: T,
  host: Readonly<Record<string, OptionRule>> = {},
  caller = 'walletTools',
): T {
  if (!isObject(given)) {
    const issues = [{ path: 'options', message: `must be an object, not ${show(given)}` }];
    throw new ValidationError(`${caller} options`, issues);
  }
  const copy = readOptions(given, { ...RULES, ...host }, `${caller} options`) as Record<string, unknown>;
  // Given back uncopied, a Promise (a missing await) or an array: the SDK's check names which.
  if (copy === given) {
    throw new ValidationError(`${caller} options`, checkOptions(copy, {}, 'options', 'an option'));
  }
  const own = Object.fromEntries(
    Object.keys(host).flatMap((name) => (name in copy ? [[name, copy[name]]] : [])),
  );
  const issues = checkOptions(own, host, '', 'an option');
  if (issues.length > 0) throw new ValidationError(`${caller} options`, issues);
  for (const [name, rules] of Object.entries(NESTED)) {
    const nested = copy[name];
    if (isObject(nested) && !Array.isArray(nested))
      copy[name] = readOptions(nested, rules, `${caller} options`, name);
  }
  return copy as T;
}

/** Checks `options` and settles what the tools run with. @internal */
export function toolContext(given: WalletToolsOptions): ToolContext {
  const copy: Record<string, unknown> = { ...readToolOptions(given) };
  // null, not undefined: a missing wallet is reported, not skipped.
  const issues = checkOptions({ ...copy, wallet: copy['wallet'] ?? null }, RULES, '', known(RULES));
  if (issues.length > 0) throw new ValidationError('walletTools options', issues);
  const options = copy as unknown as WalletToolsOptions;
  const { wallet, confirm } = options;
  const now = options.now ?? Date.now;
  // Anything but a test key counts as live: a mode that cannot be read is not assumed harmless.
  const live = wallet.mode !== 'test';
  if (live && options.allowLive !== true) {
    const message =
      'is not set. This agent toolkit was given a live key (sk_live_: real money) without allowLive: true. Use an sk_test_ key, or pass allowLive: true once limits and confirmation are set.';
    throw new ValidationError('walletTools options', [{ path: 'allowLive', message }]);
  }
  const confirmFor = (tool: MoneyToolName, byDefault: boolean): boolean =>
    typeof confirm === 'boolean' ? confirm : (confirm?.[tool] ?? byDefault);
  return {
    wallet,
    limits: { ...options.limits },
    ledger: options.ledger ?? sqliteSpendLedger({ now }),
    confirmer: createConfirmer({ now, secret: options.confirmSecret, ttlMs: options.confirmTtl }),
    confirm: {
      dispatch_charge: confirmFor('dispatch_charge', live),
      refund_charge: confirmFor('refund_charge', true),
    },
    allow: new Set(options.allow ?? []),
    now,
  };
}
