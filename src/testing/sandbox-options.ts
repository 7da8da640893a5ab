/**
 * The checks of `createSandbox()` options and `listen()` options, in one place: every problem is
 * named at once, by field, in one `ValidationError`, with "did you mean" for a misspelled option.
 */
import { customersRule } from './customers.js';
import { faultsRule } from './faults.js';
import { loggerRule } from './log.js';
import { checkOptions, throwIssues, wholeNumber } from '../core/options.js';
import { describe } from '../internal/describe.js';
import { fn, httpUrl, list, range, text } from './options.js';
import type { SandboxOptions } from './sandbox-api.js';
import type { SandboxListenOptions } from './server.js';
import { retryRule } from './webhook-delivery.js';

const WEEK_MS = 7 * 24 * 3_600_000;

/** Checks `createSandbox()` options. @internal */
export function checkSandboxOptions(options: unknown): asserts options is SandboxOptions {
  const issues = checkOptions(
    options,
    {
      baseUrl: httpUrl,
      webhookUrl: httpUrl,
      webhookSecret: text,
      webhookRetry: retryRule,
      customers: customersRule,
      allowedIps: list(text, 10_000),
      clientIp: text,
      promptTtlMs: range(1, WEEK_MS),
      now: fn,
      logger: loggerRule,
      faults: faultsRule,
      historyLimit: wholeNumber(0, 1_000_000),
      idempotencyKeyLimit: wholeNumber(1, 10_000_000),
    },
    '',
    'a known option',
  );
  if (issues.length === 0 && options !== undefined) {
    const { webhookUrl, webhookSecret } = options as SandboxOptions;
    if (webhookUrl !== undefined && webhookSecret === undefined) {
      issues.push({
        path: 'webhookSecret',
        message: 'is required with webhookUrl: your handler verifies with it',
      });
    }
    if (webhookSecret !== undefined && webhookUrl === undefined) {
      issues.push({ path: 'webhookUrl', message: 'is required with webhookSecret: where should events go?' });
    }
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
