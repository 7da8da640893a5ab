/** No answer: the connection failed, timed out, or the caller aborted. */
import { WalletError, type WalletErrorName } from './base.js';

/** What a {@link ConnectionError} is built from. */
export interface ConnectionErrorInit {
  /** Method and path of the call, for example `POST /v1/charges/dispatch`. */
  endpoint: string;
  /** The idempotency key of a POST, which makes retrying it safe. */
  idempotencyKey: string | undefined;
  /** The underlying network error. */
  cause: unknown;
  /** How many attempts were made. */
  attempts: number;
}

function unknownOutcome(init: ConnectionErrorInit): string {
  if (init.idempotencyKey === undefined) return '';
  return (
    ` The outcome of ${init.endpoint} is unknown: the service may have acted on it.` +
    ` Retry with idempotencyKey '${init.idempotencyKey}' (it is never applied twice), or confirm with charges.verify().`
  );
}

/**
 * No response arrived: the connection failed or was reset. On a POST the outcome is unknown;
 * retry with the carried `idempotencyKey` and the service will not act twice.
 */
export class ConnectionError extends WalletError {
  override readonly name: WalletErrorName = 'ConnectionError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ConnectionError';
  /** Method and path of the call. */
  readonly endpoint: string;
  /** For a POST: the key to retry with; the service will not act on it twice. */
  readonly idempotencyKey: string | undefined;
  /** True for a POST: the service may or may not have acted on it. */
  readonly outcomeUnknown: boolean;
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  /** @param init - see {@link ConnectionErrorInit}. */
  constructor(init: ConnectionErrorInit, what = 'Connection failed', code = 'connection_error') {
    super(`${what} after ${init.attempts} attempt(s) of ${init.endpoint}.${unknownOutcome(init)}`, code, {
      cause: init.cause,
    });
    this.endpoint = init.endpoint;
    this.idempotencyKey = init.idempotencyKey;
    this.outcomeUnknown = init.idempotencyKey !== undefined;
    this.attempts = init.attempts;
  }
}

/** No complete response arrived within the per-attempt `timeout`. */
export class ConnectionTimeoutError extends ConnectionError {
  override readonly name: WalletErrorName = 'ConnectionTimeoutError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'ConnectionTimeoutError';
  /** @param init - see {@link ConnectionErrorInit}. @param timeout - the per-attempt limit, ms. */
  constructor(init: ConnectionErrorInit, timeout: number) {
    super(init, `Timed out (${timeout} ms per attempt)`, 'connection_timeout');
  }
}

/** The caller's `AbortSignal` fired. Never retried. */
export class RequestAbortedError extends WalletError {
  override readonly name: WalletErrorName = 'RequestAbortedError';
  /** @internal */
  static override readonly kind: WalletErrorName = 'RequestAbortedError';
  /** For a POST: the key to retry with, since the service may have acted before the abort. */
  readonly idempotencyKey: string | undefined;
  /** @param endpoint - method and path. @param idempotencyKey - the POST's key. */
  constructor(endpoint: string, idempotencyKey: string | undefined, cause?: unknown) {
    super(`The request ${endpoint} was aborted by its signal.`, 'request_aborted', { cause });
    this.idempotencyKey = idempotencyKey;
  }
}
