/** A webhook delivery refused: the one error of the light webhooks entry besides the root's. */
import { WalletError, isKind, named } from './base.js';

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

named({ WebhookVerificationError });

/** True when a webhook delivery failed verification. */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return isKind(error, 'WebhookVerificationError');
}
