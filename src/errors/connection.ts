/** No answer: the connection failed or timed out. */
import { WalletError, named, type CallInfo, type WalletErrorCode } from './base.js';

/** What a {@link ConnectionError} is built from. */
export interface ConnectionErrorInit extends Partial<CallInfo> {
  /** Method and path of the call, for example `POST /v1/charges/dispatch`. */
  endpoint: string;
  /** The idempotency key of a POST, which makes retrying it safe. */
  idempotencyKey: string | undefined;
  /** The underlying network error, scrubbed of the key. */
  cause: unknown;
  /** How many attempts were made. */
  attempts: number;
  /** The whole message, when the caller composed one (the transport names host, error code and advice). */
  message?: string;
}

/**
 * No response arrived: the connection could not be made, failed or was reset. `outcomeUnknown`
 * says whether the service may have acted (false for a DNS failure or a refused connection, where
 * nothing reached it); retrying with the carried `idempotencyKey` is always safe.
 */
export class ConnectionError extends WalletError {
  /** Method and path of the call. */
  declare readonly endpoint: string;
  /** How many attempts were made before giving up. */
  declare readonly attempts: number;

  /** @param init - see {@link ConnectionErrorInit}. @param code - defaults to the class's code. */
  constructor(init: ConnectionErrorInit, code?: WalletErrorCode) {
    const message =
      init.message ?? `Connection failed after ${init.attempts} attempt(s) of ${init.endpoint}.`;
    super(message, code, { cause: init.cause, call: init });
  }
}

/** No complete response arrived within the per-attempt `timeout`. */
export class ConnectionTimeoutError extends ConnectionError {
  /** The per-attempt limit, in milliseconds. */
  readonly timeout: number;
  /** @param init - see {@link ConnectionErrorInit}. @param timeout - the per-attempt limit, ms. */
  constructor(init: ConnectionErrorInit, timeout: number) {
    super({
      ...init,
      message:
        init.message ??
        `Timed out (${timeout} ms per attempt) after ${init.attempts} attempt(s) of ${init.endpoint}.`,
    });
    this.timeout = timeout;
  }
}

named({ ConnectionError, ConnectionTimeoutError });
