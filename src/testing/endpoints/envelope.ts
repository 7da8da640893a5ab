/**
 * The sandbox's HTTP vocabulary: its error type and the service's response envelopes. Every answer
 * the state machine gives goes through here, so all three ways of serving it answer byte for byte
 * the same.
 */
import { WalletError, named } from '../../errors/base.js';

/**
 * A request the sandbox refused, or a test control called on a charge in the wrong state. Carries
 * the HTTP status the sandbox answers with, so the same refusal reads the same over HTTP and in
 * process. A {@link WalletError}, so `isWalletError` and `instanceof WalletError` hold.
 *
 * @example
 * ```ts
 * await expect(sandbox.authorize('order_unknown')).rejects.toMatchObject({ name: 'SandboxError', status: 404 });
 * ```
 */
export class SandboxError extends WalletError {
  /** The HTTP status the sandbox answers with for this refusal. */
  readonly status: number;

  /** @param status - HTTP status. @param message - the envelope's `message`, for a person. */
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

named({ SandboxError });

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

/** A saved answer: what the idempotency store keeps and replays. @internal */
export interface SavedResponse {
  /** HTTP status. */
  status: number;
  /** The exact JSON text of the body. */
  body: string;
}

/** `{ status: 'success', message?, data }` with HTTP 200. The verify response has no `message`. @internal */
export function success(data: unknown, message?: string): SavedResponse {
  const envelope = message === undefined ? { status: 'success', data } : { status: 'success', message, data };
  return { status: 200, body: JSON.stringify(envelope) };
}

/** `{ status: 'error', message }` with the given HTTP status. @internal */
export function failure(status: number, message: string): SavedResponse {
  return { status, body: JSON.stringify({ status: 'error', message }) };
}

/** Builds the Fetch `Response` for a saved answer; `extra` adds headers such as `Idempotent-Replayed`. @internal */
export function toResponse(saved: SavedResponse, extra: Record<string, string> = {}): Response {
  return new Response(saved.body, { status: saved.status, headers: { ...JSON_HEADERS, ...extra } });
}
