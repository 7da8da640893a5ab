/**
 * `@wallet/agent-toolkit`: Wallet's payment calls as tools for AI agents, with hard spending limits
 * in Kobo, confirmation bound to the exact arguments, and an MCP server.
 *
 * @module \@wallet/agent-toolkit
 */
export { walletTools } from './tools.js';
export type { WalletTool, ToolAnnotations, WalletLike } from './context.js';
export type { WalletToolsOptions } from './options.js';
export type { ToolResult } from './report.js';
export type { ToolName, MoneyToolName, JsonSchema } from './shapes.js';
export type { SpendLimits, LimitRefusal } from './limits.js';
export { memorySpendLedger } from './ledger.js';
export type { SpendLedger, SpendLedgerOptions, SpendKind, Reservation, TokenClaim, Hold } from './ledger.js';
export { redisSpendLedger } from './redis-ledger.js';
export type { RedisSpendLedgerOptions } from './redis-ledger.js';
export { createMcpServer } from './mcp.js';
export type { McpServerOptions } from './mcp.js';
export type { Money, ToolErrorData } from './words.js';
