/** Something failed a check: the caller's parameters, the service's response, or a webhook. */
import { WalletError, named, type CallInfo } from './base.js';

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
