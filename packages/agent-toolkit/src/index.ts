/**
 * `@wallet/agent-toolkit`: Wallet's payment calls as tools for AI agents, with hard spending limits
 * in Kobo, confirmation bound to the exact arguments, and an MCP server.
 *
 * @module \@wallet/agent-toolkit
 */
export { walletTools } from './tools/wallet-tools.js';
export type { WalletTool, ToolAnnotations, ToolName, MoneyToolName, JsonSchema } from './tools/shapes.js';
export type { WalletToolsOptions, WalletLike } from './tools/options.js';
export type { ToolResult } from './answers/report.js';
export type { Money, ToolErrorData } from './answers/words.js';
export type { SpendLimits, LimitRefusal } from './spending/limits.js';
export {
  memorySpendLedger,
  type SpendLedger,
  type SpendLedgerOptions,
  type SpendKind,
  type EntryState,
  type JournalEntry,
  type BeginRequest,
  type BeginAnswer,
} from './spending/ledger.js';
export { sqliteSpendLedger, type SqliteSpendLedgerOptions } from './spending/sqlite-ledger.js';
export { redisSpendLedger, type RedisSpendLedgerOptions } from './spending/redis-ledger.js';
export { createMcpServer, type McpServerOptions } from './hosts/mcp.js';
