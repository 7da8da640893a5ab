/**
 * The shapes every tool shares: the tool itself, its MCP annotations, and what a tool needs from
 * `walletTools()` to run.
 */
import type {
  ChargeDispatch,
  DispatchParams,
  Refund,
  RefundParams,
  RequestOptions,
  ResolvedCustomer,
  ResolveHandleParams,
  Transaction,
  WaitForOutcomeOptions,
} from '@wallet/node';
import type { Confirmer } from '../spending/confirm.js';
import type { SpendLedger } from '../spending/ledger.js';
import type { SpendLimits } from '../spending/limits.js';
import type { ToolResult } from '../answers/report.js';
import type { JsonSchema, MoneyToolName, ToolName } from './shapes.js';

/** MCP tool annotations: hints a host uses to decide what to ask the user before a call. */
export interface ToolAnnotations {
  /** A title for people. */
  title: string;
  /** True when the tool changes nothing. */
  readOnlyHint: boolean;
  /** True when the tool can move money (hosts ask the user before such calls). */
  destructiveHint: boolean;
  /** True when a repeat with the same arguments changes nothing more. */
  idempotentHint: boolean;
  /** True: the tool talks to the Wallet service, outside the host. */
  openWorldHint: boolean;
}

/** One tool: what a model sees (name, description, input JSON Schema) and how to run it. */
export interface WalletTool {
  /** The tool's name, for example `refund_charge`. */
  name: ToolName;
  /** For the model: what it does, units, what to do on each error. */
  description: string;
  /** JSON Schema of the input, derived from the SDK's own schemas. */
  inputSchema: JsonSchema;
  /** MCP annotations. */
  annotations: ToolAnnotations;
  /** Runs the tool. Never throws: a refusal or failure is a result with `isError: true`. */
  execute(input: unknown): Promise<ToolResult>;
}

/**
 * The part of a `Wallet` the tools use, by its shape rather than `Pick<Wallet, ...>`: a CommonJS
 * file's `Wallet` comes from the SDK's .d.cts, a second copy of its classes, and a class with
 * private fields (`Charges`, `APIPromise`) only matches its own copy.
 */
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

/** What the tools run with, settled by `walletTools()`. @internal */
export interface ToolContext {
  wallet: WalletLike;
  limits: SpendLimits;
  ledger: SpendLedger;
  confirmer: Confirmer;
  allowLive: boolean;
  confirm: Record<MoneyToolName, boolean>;
  /** The money tools this agent was given: advice names only those. */
  allow: ReadonlySet<MoneyToolName>;
  now: () => number;
}
