/**
 * The sandbox's one option checker, on the SDK's (`core/options.ts`): the options of
 * `createSandbox()` and `listen()`, the arguments of `sandbox.fetch()`, `addCustomer()` and the
 * controls, and the bin's flags once turned into options. A mistake (a wrong type, a negative
 * delay, a misspelled name) is one `ValidationError` naming every bad field at once, with "did you
 * mean" for a misspelled option, never a `TypeError` from deep inside or an option silently ignored.
 */
import { checkOptions, ofType, throwIssues, wholeNumber } from '../core/options.js';
import type { ValidationIssue } from '../errors/base.js';
import { describe, isPlainObject } from '../internal/values.js';
import type { SandboxOptions } from './api.js';
import { KINDS, MAX_LATENCY_MS, MAX_RETRY_AFTER_S } from './endpoints/faults.js';
import type { SandboxFaultKind } from './endpoints/faults.js';
import { HANDLE, phoneKey, withAt } from './state/customers.js';
import type { SandboxCustomerInit } from './state/customers.js';
import type { SandboxListenOptions } from './transports/server.js';
import type { WebhookTarget } from './webhooks/sender.js';
import { checkValue, httpUrl, issuesOf, list, object, oneOrRange, range, text } from './rules.js';
import type { Rule } from './rules.js';

const WEEK_MS = 7 * 24 * 3_600_000;
const fn: Rule = ofType('function');

const bankRule: Rule = object({
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

const customerRule: Rule = (value, path) => {
  const issues = issuesOf(customerShape(value, path), path);
  if (!isPlainObject(value)) return issues;
  for (const field of ['handle', 'phone', 'name'] as const) {
    if (value[field] === undefined) issues.push({ path: `${path}.${field}`, message: 'is required' });
  }
  const ids = Array.isArray(value.banks)
    ? value.banks.map((bank: unknown) => (bank as { bankId?: unknown }).bankId)
    : [];
  if (new Set(ids).size !== ids.length)
    issues.push({ path: `${path}.banks`, message: 'must have distinct bankIds' });
  return issues;
};

/** The rule for a list of customers (the `customers` option and `--customers FILE`). @internal */
const customersRule: Rule = (value, path) => {
  const issues = issuesOf(list(customerRule, 10_000)(value, path), path);
  if (!Array.isArray(value)) return issues;
  const seen = new Set<string>();
  value.forEach((customer: unknown, index) => {
    const handle = (customer as { handle?: unknown } | null)?.handle;
    if (typeof handle !== 'string') return;
    if (seen.has(withAt(handle)))
      issues.push({ path: `${path}.${index}.handle`, message: `repeats ${withAt(handle)}` });
    seen.add(withAt(handle));
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

const faultsRule: Rule = object({
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
const loggerRule: Rule = (value) => {
  const sink = value as Partial<Record<'info' | 'warn', unknown>> | null;
  if (
    typeof sink !== 'object' ||
    sink === null ||
    fn(sink.info, '') !== undefined ||
    fn(sink.warn, '') !== undefined
  ) {
    return `must be an object with info() and warn() methods, such as console (got ${describe(value)})`;
  }
  return undefined;
};

const retryRule: Rule = object({
  attempts: wholeNumber(1, 20),
  delayMs: range(0, 600_000),
  maxDelayMs: range(0, 600_000),
  timeoutMs: range(1, 600_000),
});

const SANDBOX_RULES: Readonly<Record<string, Rule>> = {
  baseUrl: httpUrl,
  webhookUrl: httpUrl,
  webhookSecret: text,
  webhookRetry: retryRule,
  customers: customersRule,
  allowedIps: list(text, 10_000),
  clientIp: text,
  promptTtlMs: range(1, WEEK_MS),
  now: fn,
  clock: (value) => (value === 'real' || value === 'manual' ? undefined : "must be 'real' or 'manual'"),
  logger: loggerRule,
  faults: faultsRule,
  historyLimit: wholeNumber(0, 1_000_000),
  idempotencyKeyLimit: wholeNumber(1, 10_000_000),
  maxCharges: wholeNumber(1, 10_000_000),
};

/** The issues of a webhook URL and secret given one without the other. @internal */
export function webhookPairIssues(url: unknown, secret: unknown): ValidationIssue[] {
  if (url !== undefined && secret === undefined) {
    return [{ path: 'webhookSecret', message: 'is required with webhookUrl: your handler verifies with it' }];
  }
  if (secret !== undefined && url === undefined) {
    return [{ path: 'webhookUrl', message: 'is required with webhookSecret: where should events go?' }];
  }
  return [];
}

/** Checks `createSandbox()` options. @internal */
export function checkSandboxOptions(options: unknown): asserts options is SandboxOptions {
  const issues = checkOptions(options, SANDBOX_RULES, '', 'a known option');
  if (issues.length === 0 && options !== undefined) {
    const { webhookUrl, webhookSecret } = options as SandboxOptions;
    issues.push(...webhookPairIssues(webhookUrl, webhookSecret));
  }
  throwIssues('createSandbox() options', issues);
}

/** Checks `listen()` options. @internal */
export function checkListenOptions(options: unknown): asserts options is SandboxListenOptions {
  const rules = {
    port: wholeNumber(0, 65_535),
    host: text,
    requestTimeoutMs: range(1, 600_000),
    logger: loggerRule,
  };
  throwIssues('listen() options', checkOptions(options, rules, '', 'a known option'));
}

/** Checks what `sandbox.fetch()` is given: a Fetch `Request`, and an optional context. @internal */
export function checkFetchArguments(request: unknown, context: unknown): void {
  const issues =
    request instanceof Request
      ? []
      : [{ path: 'request', message: `must be a Request (got ${describe(request)})` }];
  issues.push(...checkOptions(context, { clientIp: text }, 'context', 'a known field of the context'));
  throwIssues('sandbox.fetch() arguments', issues);
}

/** Checks where webhooks should go from now on: `{ url, secret }`, both required. @internal */
export function checkWebhookTarget(value: unknown): asserts value is WebhookTarget {
  const issues = checkOptions(value, { url: httpUrl, secret: text }, '', 'a field of the webhook target');
  if (issues.length === 0 && isPlainObject(value)) {
    if (value.url === undefined)
      issues.push({ path: 'url', message: 'is required: where should events go?' });
    if (value.secret === undefined) {
      issues.push({ path: 'secret', message: 'is required: your handler verifies with it' });
    }
  }
  if (value === undefined) issues.push({ path: '', message: 'must be { url, secret }' });
  throwIssues('webhook target', issues);
}
