/** The shapes of webhook events and of what the verifiers take; types only. */

/** Event kinds this version of the SDK knows and types. */
export type KnownWebhookEventKind = 'charge.success';

/** The `data` of a `charge.success` event: a charge was paid. */
export interface ChargeSuccessData {
  /** Your order reference, as given to `charges.resolveHandle`. */
  reference: string;
  /** The amount paid, in Kobo (a safe integer). */
  amount: number;
  /** Who paid. */
  customer: {
    /** The customer's handle, with a leading `@`. */
    handle: string;
  };
}

/**
 * A charge was paid. Confirm it with `wallet.charges.verify(data.reference)` before giving value,
 * and deduplicate on `event` + `data.reference`: the service may deliver the same event again.
 */
export interface ChargeSuccessEvent {
  /** The event kind. */
  event: 'charge.success';
  /** The paid charge. */
  data: ChargeSuccessData;
}

/**
 * The `event` of a kind this SDK version does not type yet; a plain string at run time. Branded so
 * `event.event === 'charge.success'` narrows `data` (compare a new kind as `(event.event as string)
 * === 'refund.success'`); a string brand, not a `unique symbol`, so ESM and CommonJS share one type.
 */
export type UnknownWebhookEventKind = `${string & {
  /** A compile-time brand only; never present at run time. */
  readonly '@wallet/node.unknownKind': true;
}}`;

/**
 * An event of a kind this SDK version does not know yet. It is delivered, not refused, so a kind the
 * service adds never breaks a webhook route; its `data` is an object you must check yourself.
 */
export interface UnknownWebhookEvent {
  /** The event kind, a string; see {@link UnknownWebhookEventKind}. */
  event: UnknownWebhookEventKind;
  /** The event's payload: a JSON object, otherwise unchecked. */
  data: unknown;
}

/**
 * A verified webhook event. Checking `event` tells TypeScript the type of `data`.
 *
 * @example
 * ```ts
 * function handle(event: WebhookEvent): void {
 *   if (event.event === 'charge.success') {
 *     console.log(event.data.reference, event.data.amount); // typed
 *   } else {
 *     console.log('ignored event kind', event.event);       // a string; data is unknown
 *   }
 * }
 * ```
 */
export type WebhookEvent = ChargeSuccessEvent | UnknownWebhookEvent;

/** The webhook secret, or several during a rotation: a delivery signed with any of them is accepted. */
export type WebhookSecret = string | readonly string[];

/**
 * The `X-Wallet-Signature` header as a framework gives it: a string, an array (Node's
 * `headersDistinct`) holding one value (or the same value repeated), or nothing.
 */
export type WebhookSignatureHeader = string | readonly string[] | null | undefined;

/**
 * The request body exactly as received: a string, a `Buffer` or any `Uint8Array`, or an
 * `ArrayBuffer` (`await request.arrayBuffer()`). Never a parsed object.
 */
export type RawWebhookBody = string | Uint8Array | ArrayBuffer;
