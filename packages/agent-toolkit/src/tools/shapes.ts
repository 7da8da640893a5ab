/** What a tool is, and its input from the SDK's own request schemas (zod 4 makes their JSON Schemas). */
import { dispatchParams, refundParams, resolveHandleParams, verifyParams } from '@wallet/node/schemas';
import * as z from 'zod';
import type { ToolResult } from '../answers/report.js';

/** The names of the five tools. */
export type ToolName =
  'resolve_customer' | 'dispatch_charge' | 'get_charge' | 'wait_for_charge' | 'refund_charge';

/** The tools that move money, which only `allow` turns on. */
export type MoneyToolName = 'dispatch_charge' | 'refund_charge';

/** Whether `name` moves money. @internal */
export function isMoneyTool(name: unknown): name is MoneyToolName {
  return name === 'dispatch_charge' || name === 'refund_charge';
}

/** A JSON Schema object, as MCP's `inputSchema` and the AI SDK's `jsonSchema()` take it. */
export type JsonSchema = Record<string, unknown>;

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
  /**
   * Runs the tool. Never throws: a refusal or failure is a result with `isError: true`. `toolCallId`
   * is the host's id of this call (the AI SDK's): a money call run again under the same id with the
   * same input (an approval sent twice) moves money once.
   */
  execute(input: unknown, call?: { toolCallId?: string }): Promise<ToolResult>;
}

type Shape = Record<string, z.ZodType>;

// The SDK types its schemas as plain `ZodType` so its declarations stay small; they are objects.
function shapeOf(schema: unknown): Shape {
  return (schema as { shape: Shape }).shape;
}

const resolve = shapeOf(resolveHandleParams);
const dispatch = shapeOf(dispatchParams);
const refund = shapeOf(refundParams);
const verify = shapeOf(verifyParams);
// The SDK's Kobo rule is a custom check: toJsonSchema gives it its JSON Schema.
const kobo = resolve['amount'];
const field = (shape: Shape, key: string): z.ZodType => {
  const schema = shape[key];
  if (schema === undefined) throw new Error(`@wallet/node/schemas has no '${key}'`);
  return schema;
};
const pick = (shape: Shape, ...keys: string[]): Shape =>
  Object.fromEntries(keys.map((key) => [key, field(shape, key)]));
const withToken = (confirm: boolean): Shape => (confirm ? { confirmationToken: z.optional(z.string()) } : {});

/** Longest wait_for_charge waits, in seconds: inside an MCP client's default 60 s request timeout. */
export const MAX_WAIT_SECONDS = 50;

const SCHEMAS: Record<ToolName, (confirm: boolean) => Shape> = {
  resolve_customer: () => pick(resolve, 'handle', 'amount', 'reference'),
  get_charge: () => pick(verify, 'reference'),
  wait_for_charge: () => ({
    ...pick(verify, 'reference'),
    timeoutSeconds: z.optional(z.int().min(1).max(MAX_WAIT_SECONDS)),
  }),
  dispatch_charge: (confirm) => ({
    ...pick(resolve, 'handle', 'amount', 'reference'),
    ...pick(dispatch, 'authChannel'),
    bankId: z.optional(field(dispatch, 'bankId')),
    ...pick(dispatch, 'description'),
    ...withToken(confirm),
  }),
  refund_charge: (confirm) => ({ ...pick(refund, 'reference', 'amount', 'reason'), ...withToken(confirm) }),
};

const FIELDS: Record<string, string> = {
  handle:
    "The customer's Wallet handle with its leading @ (for example @ada), or their registered phone number.",
  amount: 'Amount in Kobo, a whole number: 100 Kobo = ₦1, so ₦5,000 is 500000.',
  reference:
    "The merchant's unique reference for this order or payment. Never invent one for an existing order: ask or look it up.",
  authChannel:
    "How the customer approves: 'wallet_push' (a prompt in their app, the usual choice) or 'wallet_qr' (a QR code to scan).",
  bankId: "Which of the customer's banks to debit; omit it to use their first bank with an active mandate.",
  description: "Shown to the customer on the approval screen, for example 'Order 1042: 2 bags of rice'.",
  reason: 'Why the money goes back, for the records.',
  timeoutSeconds: `How long to wait at most, in seconds (1 to ${MAX_WAIT_SECONDS}; default ${MAX_WAIT_SECONDS}).`,
  confirmationToken:
    'Leave it out on the first call: the answer is a preview with a token. Ask the user, then call again with the same arguments plus that token.',
};

const REFUND_AMOUNT =
  'Amount to refund in Kobo (100 Kobo = ₦1). Omit it to refund everything that is left of the payment.';

/** The JSON Schema a model is shown for tool `name`'s `schema`, each property described. @internal */
export function toJsonSchema(name: ToolName, schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      // Show the model exactly what the SDK accepts, whatever zod makes of the custom check.
      if ((ctx.zodSchema as unknown) === kobo) {
        for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
        Object.assign(ctx.jsonSchema, { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
      }
    },
  }) as JsonSchema;
  delete json['$schema'];
  const properties = json['properties'] as Record<string, Record<string, unknown>>;
  for (const [key, property] of Object.entries(properties)) {
    // A property JSON Schema cannot describe would let a model send anything there.
    if (property['type'] === undefined && property['enum'] === undefined) {
      throw new Error(`${name}.${key} has no JSON Schema type`);
    }
    property['description'] = name === 'refund_charge' && key === 'amount' ? REFUND_AMOUNT : FIELDS[key];
  }
  return json;
}

/** The input schema of tool `name`; money tools take `confirmationToken` only when they confirm. @internal */
export function toolSchema(name: ToolName, confirm: boolean): z.ZodType {
  return z.strictObject(SCHEMAS[name](confirm));
}
