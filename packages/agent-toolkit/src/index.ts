/**
 * `@wallet/agent-toolkit`: Wallet's payment calls as tools for AI agents, with hard spending limits
 * in Kobo, confirmation bound to the exact arguments, and an MCP server.
 *
 * @module \@wallet/agent-toolkit
 */
export { walletTools } from './tools/wallet-tools.js';
export type { WalletTool, ToolAnnotations } from './tools/shapes.js';
export type { WalletToolsOptions, WalletLike } from './tools/options.js';
export type { ToolResult } from './answers/report.js';
export type { ToolName, MoneyToolName, JsonSchema } from './tools/shapes.js';
export type { SpendLimits, LimitRefusal } from './spending/limits.js';
export type {
  SpendLedger,
  SpendLedgerOptions,
  SpendKind,
  EntryState,
  JournalEntry,
  BeginRequest,
  BeginAnswer,
} from './spending/ledger.js';
export { memorySpendLedger } from './spending/ledger.js';
export { sqliteSpendLedger } from './spending/sqlite-ledger.js';
export type { SqliteSpendLedgerOptions } from './spending/sqlite-ledger.js';
export { redisSpendLedger } from './spending/redis-ledger.js';
export type { RedisSpendLedgerOptions } from './spending/redis-ledger.js';
export { createMcpServer } from './hosts/mcp.js';
export type { McpServerOptions } from './hosts/mcp.js';
export type { Money, ToolErrorData } from './answers/words.js';
