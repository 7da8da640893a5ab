/**
 * The contract between the webhook handlers and a dedupe store. Types only.
 */

/**
 * What {@link WebhookDedupeStore.claim} found: the event is now this caller's to handle (with the
 * token that proves it), already handled, or being handled by someone else right now.
 */
export type DedupeClaim =
  | {
      /** The event is now this caller's to handle. */
      readonly status: 'claimed';
      /** Proves the claim is this caller's: pass it to `done` and `release`. */
      readonly token: string;
    }
  | {
      /** The event was already handled. */
      readonly status: 'done';
    }
  | {
      /** Another delivery holds the event's claim right now. */
      readonly status: 'busy';
    };

/**
 * Where the handlers record which events they handled, so each runs `onEvent` once across every
 * process sharing the store. Built in: {@link memoryDedupeStore} (one process) and
 * {@link redisDedupeStore} (a fleet). A store of your own must make `claim` atomic: of two
 * concurrent claims of one id, exactly one may get `claimed`.
 */
export interface WebhookDedupeStore {
  /**
   * Claims an event before `onEvent` runs. The claim expires on its own (so a crashed worker cannot
   * block an event forever), much sooner than a `done` mark does.
   */
  claim(id: string): Promise<DedupeClaim>;
  /** Marks a claimed event handled; later deliveries of it are answered 200 without `onEvent`. */
  done(id: string, token: string): Promise<void>;
  /**
   * Gives a claim back after `onEvent` failed, so the redelivery runs it. Must remove the claim only
   * while `token` still owns it: a slow worker must not release a claim taken after its own expired.
   */
  release(id: string, token: string): Promise<void>;
  /**
   * Extends a claim `token` still owns by the store's `claimTtl`, resolving `true`, or `false` when
   * the claim is no longer this token's (it expired and another delivery took it). The handlers call
   * it every third of `claimTtl` while `onEvent` runs, so a handler slower than the lease is never
   * run twice; when it rejects or resolves `false`, the delivery is answered 503 once `onEvent` ends,
   * so the service delivers again. A store without it (or without `claimTtl`) is not renewed: its
   * claims must outlast `onEvent`.
   */
  renew?(id: string, token: string): Promise<boolean>;
  /** How long a claim lasts without renewal, in ms; with {@link WebhookDedupeStore.renew}, its schedule. */
  readonly claimTtl?: number;
}
