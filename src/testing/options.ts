/** The sandbox's checks on the SDK's one option checker: every bad field in one `ValidationError`. */
import { checkOptions, ofType, readOptions, throwIssues, wholeNumber } from '../core/options.js';
import type { OptionRule } from '../core/options.js';
import type { ValidationIssue } from '../errors/base.js';
import { describe, isPlainObject } from '../internal/values.js';
import type { SandboxOptions } from './api.js';
import { KINDS, MAX_LATENCY_MS, MAX_RETRY_AFTER_S } from './endpoints/faults.js';
import type { SandboxFaultKind } from './state/records.js';
import { HANDLE, phoneKey, withAt, type SandboxCustomerInit } from './state/customers.js';
import type { SandboxListenOptions } from './transports/server.js';
import type { WebhookTarget } from './webhooks/sender.js';

/** A rule's answer as a list of issues at `path`. */
function issuesOf(problem: ReturnType<OptionRule>, path: string): ValidationIssue[] {
  if (problem === undefined) return [];
  return typeof problem === 'string' ? [{ path, message: problem }] : problem;
}

/** A rule for a nested plain object whose fields have their own rules. */
const object =
  (shape: Readonly<Record<string, OptionRule>>): OptionRule =>
  (value, path) =>
    isPlainObject(value)
      ? checkOptions(value, shape, path, 'a known option')
      : `must be an object (got ${describe(value)})`;

/** A non-empty string without lone surrogates (they cannot be encoded on the wire). */
export const text: OptionRule = (value) => {
  if (typeof value !== 'string') return `must be a string (got ${describe(value)})`;
  if (value.trim() === '') return 'must not be empty';
  if (/\p{Cs}/u.test(value)) return 'must not contain lone surrogates';
  return undefined;
};

/** A number from `min` to `max`, inclusive (for a whole one, core's `wholeNumber`). */
export const range =
  (min: number, max: number): OptionRule =>
  (value) => {
    if (typeof value !== 'number' || Number.isNaN(value)) return `must be a number (got ${describe(value)})`;
    if (value < min || value > max) return `must be from ${min} to ${max} (got ${value})`;
    return undefined;
  };

/** An `http:` or `https:` URL without query or fragment. */
const httpUrl: OptionRule = (value, path) => {
  const problem = text(value, path);
  if (problem !== undefined) return problem;
  const parsed = URL.canParse(value as string) ? new URL(value as string) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return `must be an http: or https: URL (got ${describe(value)})`;
  if (parsed.search !== '' || parsed.hash !== '') return 'must not have a query or fragment';
  return undefined;
};

/** An array of at most `max` items, each passing `item`. */
export const list =
  (item: OptionRule, max: number): OptionRule =>
  (value, path) => {
    if (!Array.isArray(value)) return `must be an array (got ${describe(value)})`;
    if (value.length > max) return `must have at most ${max} items (got ${value.length})`;
    // Array.from, not flatMap: a hole is an item too (undefined), never skipped unchecked.
    return Array.from(value, (inner: unknown, index) =>
      issuesOf(item(inner, `${path}.${index}`), `${path}.${index}`),
    ).flat();
  };

/** Checks one value against a rule, throwing a `ValidationError` for `context`. @internal */
export function checkValue(context: string, name: string, value: unknown, rule: OptionRule): void {
  throwIssues(context, issuesOf(rule(value, name), name));
}

/** `one`, or `[min, max]` of it with min <= max; `what` words one value in the message. */
const oneOrRange =
  (one: OptionRule, what: string): OptionRule =>
  (value, path) => {
    if (!Array.isArray(value)) return one(value, path);
    const [min, max] = value as unknown[];
    const bad = (bound: unknown): boolean => one(bound, path) !== undefined;
    if (value.length !== 2 || bad(min) || bad(max)) return `must be ${what}, or [min, max] of them`;
    return (min as number) <= (max as number) ? undefined : 'must be [min, max] with min <= max';
  };

const WEEK_MS = 7 * 24 * 3_600_000;

const bankRule: OptionRule = object({
  bankId: text,
  bankName: text,
  bankCode: text,
  accountNumber: (value, path) =>
    text(value, path) ?? (/^\d{4,34}$/.test(value as string) ? undefined : 'must be 4 to 34 digits'),
  mandateStatus: text,
});

const customerShape = object({
  handle: (handle, path) =>
    text(handle, path) ??
    (HANDLE.test(handle as string)
      ? undefined
      : 'must be letters, digits, _ . or - (up to 64), with or without @'),
  phone: (phone, path) =>
    text(phone, path) ??
    ((phoneKey(phone as string)?.length ?? 0) >= 7
      ? undefined
      : "must be a phone number, for example '+2348000000003'"),
  name: text,
  avatarUrl: httpUrl,
  banks: list(bankRule, 100),
});

// A value already refused (null, or a getter that threw) is not read again.
const refused = (issues: ValidationIssue[], path: string): boolean =>
  issues.some((issue) => `${issue.path}.`.startsWith(`${path}.`));

const customerRule: OptionRule = (value, path) => {
  const issues = issuesOf(customerShape(value, path), path);
  if (!isPlainObject(value)) return issues;
  for (const field of ['handle', 'phone', 'name'] as const) {
    if (!refused(issues, `${path}.${field}`) && value[field] === undefined)
      issues.push({ path: `${path}.${field}`, message: 'is required' });
  }
  // Only the list or a bank's own refusal skips a bank: another field's does not hide a repeated bankId
  // (a bankId that cannot be read, a Proxy's, is skipped too).
  const at = (where: string): boolean => issues.some((issue) => issue.path === where);
  const banks = at(`${path}.banks`) ? undefined : value.banks;
  const ids = (Array.isArray(banks) ? banks : []).flatMap((bank: { bankId: unknown }, index) => {
    if (at(`${path}.banks.${index}`) || refused(issues, `${path}.banks.${index}.bankId`)) return [];
    try {
      return [bank.bankId];
    } catch {
      return [];
    }
  });
  if (new Set(ids).size !== ids.length)
    issues.push({ path: `${path}.banks`, message: 'must have distinct bankIds' });
  return issues;
};

/** A list of customers (the `customers` option and `--customers FILE`), handles distinct. */
const customersRule: OptionRule = (value, path) => {
  const issues = issuesOf(list(customerRule, 10_000)(value, path), path);
  if (!Array.isArray(value)) return issues;
  const seen = new Set<string>();
  value.forEach((customer: unknown, index) => {
    if (!isPlainObject(customer) || refused(issues, `${path}.${index}.handle`)) return;
    const handle = customer.handle;
    if (typeof handle !== 'string') return;
    const key = withAt(handle);
    if (seen.has(key)) issues.push({ path: `${path}.${index}.handle`, message: `repeats ${key}` });
    seen.add(key);
  });
  return issues;
};

/** Checks one customer, as `addCustomer()` gets it. @internal */
export function checkCustomer(value: unknown): asserts value is SandboxCustomerInit {
  checkValue('sandbox customer', 'customer', value, customerRule);
}

const latency = oneOrRange(range(0, MAX_LATENCY_MS), `ms from 0 to ${MAX_LATENCY_MS}`);
const retryAfter = oneOrRange(
  wholeNumber(0, MAX_RETRY_AFTER_S),
  `whole seconds from 0 to ${MAX_RETRY_AFTER_S}`,
);

const faultsRule: OptionRule = object({
  failRate: range(0, 1),
  kinds: list(
    (value) => (KINDS.includes(value as SandboxFaultKind) ? undefined : `must be one of ${KINDS.join(', ')}`),
    KINDS.length * 4,
  ),
  latency,
  retryAfter,
  seed: wholeNumber(0, 2 ** 32 - 1),
});

/** Any object with `info` and `warn` (console, pino, winston). */
const loggerRule: OptionRule = (value) => {
  const sink = typeof value === 'object' ? (value as { info?: unknown; warn?: unknown } | null) : null;
  return typeof sink?.info === 'function' && typeof sink.warn === 'function'
    ? undefined
    : `must be an object with info() and warn() methods, such as console (got ${describe(value)})`;
};

const retryRule: OptionRule = object({
  attempts: wholeNumber(1, 20),
  delayMs: range(0, 600_000),
  maxDelayMs: range(0, 600_000),
  timeoutMs: range(1, 600_000),
});

const SANDBOX_RULES: Readonly<Record<string, OptionRule>> = {
  baseUrl: httpUrl,
  webhookUrl: httpUrl,
  webhookSecret: text,
  webhookRetry: retryRule,
  customers: customersRule,
  allowedIps: list(text, 10_000),
  clientIp: text,
  promptTtlMs: range(1, WEEK_MS),
  now: ofType('function'),
  clock: (value) => (value === 'real' || value === 'manual' ? undefined : "must be 'real' or 'manual'"),
  logger: loggerRule,
  faults: faultsRule,
  historyLimit: wholeNumber(0, 1_000_000),
  idempotencyKeyLimit: wholeNumber(1, 10_000_000),
  maxCharges: wholeNumber(1, 10_000_000),
};

const WHY = { url: 'where should events go?', secret: 'your handler verifies with it' };
const CONTEXT = 'createSandbox() options';

/** Reads `createSandbox()` options once and checks them; the copy is what runs. @internal */
export function readSandboxOptions(given: unknown = {}): SandboxOptions {
  const options = readOptions(given, SANDBOX_RULES, CONTEXT);
  // Plain nested objects too (the only kind their rules take).
  if (isPlainObject(options))
    for (const name of ['webhookRetry', 'faults'])
      if (isPlainObject(options[name])) options[name] = readOptions(options[name], {}, CONTEXT, name);
  const issues = checkOptions(options, SANDBOX_RULES, '', 'a known option');
  if (issues.length === 0 && options !== undefined) {
    const { webhookUrl, webhookSecret } = options as SandboxOptions;
    if (webhookUrl !== undefined && webhookSecret === undefined)
      issues.push({ path: 'webhookSecret', message: `is required with webhookUrl: ${WHY.secret}` });
    if (webhookSecret !== undefined && webhookUrl === undefined)
      issues.push({ path: 'webhookUrl', message: `is required with webhookSecret: ${WHY.url}` });
  }
  throwIssues(CONTEXT, issues);
  return options as SandboxOptions;
}

const LISTEN_RULES = {
  port: wholeNumber(0, 65_535),
  host: text,
  requestTimeoutMs: range(1, 600_000),
  logger: loggerRule,
};

/** Reads `listen()` options once and checks them; the copy is what runs. @internal */
export function readListenOptions(given: unknown): SandboxListenOptions | undefined {
  const options = readOptions(given, LISTEN_RULES, 'listen() options');
  throwIssues('listen() options', checkOptions(options, LISTEN_RULES, '', 'a known option'));
  return options as SandboxListenOptions | undefined;
}

/** Checks what `sandbox.fetch()` is given: a Fetch `Request`, and an optional context. @internal */
export function checkFetchArguments(request: unknown, context: unknown): void {
  const issues = checkOptions(context, { clientIp: text }, 'context', 'a known field of the context');
  if (!(request instanceof Request))
    issues.unshift({ path: 'request', message: `must be a Request (got ${describe(request)})` });
  throwIssues('sandbox.fetch() arguments', issues);
}

/** Reads where webhooks should go from now on, once: `{ url, secret }`, both required. @internal */
export function readWebhookTarget(given: unknown): WebhookTarget {
  const rules = { url: httpUrl, secret: text };
  const value = readOptions(given, rules, 'webhook target');
  const issues = checkOptions(value, rules, '', 'a field of the webhook target');
  if (issues.length === 0 && isPlainObject(value)) {
    if (value.url === undefined) issues.push({ path: 'url', message: `is required: ${WHY.url}` });
    if (value.secret === undefined) issues.push({ path: 'secret', message: `is required: ${WHY.secret}` });
  }
  throwIssues('webhook target', issues);
  return value as WebhookTarget;
}
