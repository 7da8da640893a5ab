/** How a call ended other than by an answer or a lost connection: aborted, closed, oversized, waited out. */
import { WalletError, named, type CallInfo } from './base.js';
import type { Transaction } from '../types.js';

/** What the errors in this file are built from: the call, and optionally a composed message. */
export interface CallErrorInit extends Partial<CallInfo> {
  /** Method and path of the call. */
  endpoint: string;
  /** The whole message, when the caller composed one. */
  message?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** The caller's `AbortSignal` fired. Never retried; `outcomeUnknown` says whether a sent attempt may have acted. */
export class RequestAbortedError extends WalletError {
  /** @param init - the call; see {@link CallErrorInit}. */
  constructor(init: CallErrorInit) {
    super(init.message ?? `The request ${init.endpoint} was aborted by its signal.`, undefined, {
      cause: init.cause,
      call: init,
    });
  }
}

/** The client was closed before this call started; nothing was sent. */
export class ClientClosedError extends WalletError {
  /** @param init - the call; see {@link CallErrorInit}. */
  constructor(init: CallErrorInit) {
    super(
      init.message ?? `This Wallet client is closed; ${init.endpoint} was not sent. Create a new client.`,
      undefined,
      { cause: init.cause, call: { attempts: 0, ...init } },
    );
  }
}

/** The service answered with a body over the 1 MiB limit; it was cut off unread. Never retried. */
export class ResponseTooLargeError extends WalletError {
  /** HTTP status of the oversized response. */
  readonly status: number;
  /** Response headers, lowercase names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The limit, in bytes. */
  readonly limit: number;
  /** @param init - the call, the response's status and headers, and the limit. */
  constructor(
    init: CallErrorInit & { status: number; headers: Readonly<Record<string, string>>; limit: number },
  ) {
    super(
      init.message ??
        `The answer to ${init.endpoint} (HTTP ${init.status}) is larger than ${init.limit} bytes; it was not read.`,
      undefined,
      { call: init },
    );
    this.status = init.status;
    this.headers = init.headers;
    this.limit = init.limit;
  }
}

/** `waitForOutcome` ran out of time while the charge was still pending. */
export class WaitTimeoutError extends WalletError {
  /** The last transaction seen, still pending; undefined when no poll succeeded. */
  readonly transaction: Transaction | undefined;
  /** @param message - for a person. @param transaction - the last one seen. */
  constructor(message: string, transaction: Transaction | undefined, options?: { cause?: unknown }) {
    super(message, undefined, options);
    this.transaction = transaction;
  }
}

named({ RequestAbortedError, ClientClosedError, ResponseTooLargeError, WaitTimeoutError });
