/**
 * Something failed a check: the caller's parameters, the service's response, a webhook, or an
 * idempotency key that would make the service answer for another request; their guards beside them.
 */
import { WalletError, isKind, named, type CallInfo } from './base.js';

/** One problem with a request parameter. */
export interface ValidationIssue {
  /** Dotted path of the field, for example `amount` or `metadata.items.0`. Empty for the whole input. */
  path: string;
  /** What is wrong with it. */
  message: string;
}

/** A parameter is wrong: of a request (then nothing was sent), of the client's options, or of a money helper. */
export class ValidationError extends WalletError {
  /** Every problem found, by field. */
  readonly issues: readonly ValidationIssue[];
  /**
   * @param context - what was being validated, for example `dispatch parameters`.
   * @param issues - the problems.
   * @param note - a closing sentence, for example that nothing was sent.
   * @param call - the API call, when the HTTP layer refused it before sending.
   */
  constructor(
    context: string,
    issues: readonly ValidationIssue[],
    note = '',
    call?: Partial<CallInfo> & { cause?: unknown },
  ) {
    const list = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    super(
      `Invalid ${context}: ${list}.${note && ` ${note}`}`,
      undefined,
      call && { cause: call.cause, call },
    );
    this.issues = issues;
  }
}

/** The service answered 2xx with a body that breaks a documented field. */
export class ResponseValidationError extends WalletError {
  /** The response body as received (parsed JSON, or text). */
  readonly body: unknown;
  /** The broken fields. */
  readonly issues: readonly ValidationIssue[];
  /** HTTP status of the response. */
  readonly status: number;
  /**
   * @param endpoint - method and path. @param status - HTTP status. @param body - as received.
   * @param issues - the broken fields. @param call - the rest of the call's account.
   * @param code - `invalid_response` by default; `reference_mismatch` for an answer about another reference.
   */
  constructor(
    endpoint: string,
    status: number,
    body: unknown,
    issues: readonly ValidationIssue[],
    call?: Partial<CallInfo>,
    code?: 'invalid_response' | 'reference_mismatch',
  ) {
    const list = issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ');
    super(`Unexpected response from ${endpoint}: ${list}`, code, { call: { ...call, endpoint } });
    this.body = body;
    this.issues = issues;
    this.status = status;
  }
}

/** Why a webhook was refused. */
export type WebhookVerificationReason =
  | 'missing_secret'
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'raw_body_required'
  | 'invalid_payload';

/** A webhook delivery could not be verified; its payload must not be trusted. */
export class WebhookVerificationError extends WalletError {
  /** Why it was refused. */
  readonly reason: WebhookVerificationReason;
  /** @param reason - see {@link WebhookVerificationReason}. @param message - for a person. */
  constructor(reason: WebhookVerificationReason, message: string) {
    super(message, `webhook_${reason}`);
    this.reason = reason;
  }
}

named({ ValidationError, ResponseValidationError, WebhookVerificationError });

/** True when request parameters were refused before anything was sent. */
export function isValidationError(error: unknown): error is ValidationError {
  return isKind(error, 'ValidationError');
}
/** True when a webhook delivery failed verification. */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return isKind(error, 'WebhookVerificationError');
}

/** Why an {@link IdempotencyError} was thrown. */
export type IdempotencyErrorCode = 'idempotency_key_reused' | 'replay_mismatch';

/** What an {@link IdempotencyError} is built from. */
export interface IdempotencyErrorInit extends Partial<CallInfo> {
  /** Method and path of the call. */
  endpoint: string;
  /** The key in question. */
  idempotencyKey: string;
  /** The whole message. */
  message: string;
  /** For `replay_mismatch`: the `data` the service answered with. */
  received?: unknown;
}

/**
 * The service answers a repeated `X-Idempotency-Key` with the saved response of the first request
 * that carried it, whatever the new parameters. So one key must belong to one operation:
 * - `idempotency_key_reused`: this client already sent the key with other parameters; the call was
 *   refused before sending (nothing was sent, `outcomeUnknown` is false).
 * - `replay_mismatch`: the answer does not match the request (another reference, amount or
 *   channel): a different request's saved answer came back and this request was not carried out.
 *   `received` holds that answer.
 *
 * Either way, give each operation its own key, stored with the operation's record (the refund row,
 * the payment attempt) before sending, never a key per order.
 *
 * @example
 * ```ts
 * const refundRowId = crypto.randomUUID(); // saved with your refund row before sending
 * try {
 *   await wallet.refunds.create({ reference: 'order_1042', amount: 50_000 }, { idempotencyKey: refundRowId });
 * } catch (error) {
 *   if (error instanceof IdempotencyError) console.error('key already used for another operation:', error.idempotencyKey);
 *   else throw error;
 * }
 * ```
 */
export class IdempotencyError extends WalletError {
  declare readonly code: IdempotencyErrorCode;
  /** The key in question. */
  declare readonly idempotencyKey: string;
  /** For `replay_mismatch`, the `data` the service answered with; undefined otherwise. */
  readonly received: unknown;

  /** @param code - see the class. @param init - see {@link IdempotencyErrorInit}. */
  constructor(code: IdempotencyErrorCode, init: IdempotencyErrorInit) {
    super(init.message, code, { call: { attempts: 0, outcomeUnknown: false, ...init } });
    this.received = init.received;
  }
}

named({ IdempotencyError });
