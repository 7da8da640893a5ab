/** The sandbox's one error, carrying the HTTP status it is answered with. */
import { WalletError, named } from '../../errors/base.js';

/**
 * A request the sandbox refused, or a test control called on a charge in the wrong state, with the
 * HTTP status it is answered with, over HTTP and in process alike. A {@link WalletError}.
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
