/**
 * What the runtimes report back to the Node test, as plain JSON: the runtime has no test
 * framework, so it observes and the test judges.
 */

/** What the test process gives the runtime. */
export interface ScenarioInput {
  /** The loopback sandbox (`sandbox.listen().url`). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** A fresh reference per run. */
  readonly reference: string;
  /** A delivery signed by the test with `signWebhook`. */
  readonly webhook: { readonly body: string; readonly signature: string; readonly secret: string };
}

/** An error as seen from outside: enough to tell a `WalletError` subclass apart. */
export interface SeenError {
  readonly name: string;
  readonly message: string;
  readonly code?: unknown;
  readonly status?: unknown;
  readonly reason?: unknown;
  readonly idempotencyKey?: unknown;
  readonly outcomeUnknown?: unknown;
}

export type Outcome<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SeenError };

export interface FlowReport {
  readonly bankId: string;
  readonly dispatched: { status: string; idempotencyKey: string; attempts: number };
  readonly verified: { status: string; fee: unknown; netAmount: unknown; amount: number };
  readonly refund: { status: string; amount: number };
  readonly overRefund: SeenError;
}

export interface WebhookReport {
  readonly async: Outcome<unknown>;
  readonly sync: Outcome<unknown>;
  readonly handler: { readonly status: number; readonly body: string; readonly events: unknown[] };
  readonly forgedAsync: Outcome<unknown>;
  readonly forgedHandlerStatus: number;
  /** The reasons the handler's `onError` was given. */
  readonly refusals: unknown[];
}

export interface ScenarioReport {
  readonly runtime: string;
  readonly flow: Outcome<FlowReport>;
  readonly webhooks: Outcome<WebhookReport>;
}

export function seen(error: unknown): SeenError {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error) };
  const e = error as Error & Record<string, unknown>;
  return {
    name: e.name,
    message: e.message,
    code: e['code'],
    status: e['status'],
    reason: e['reason'],
    idempotencyKey: e['idempotencyKey'],
    outcomeUnknown: e['outcomeUnknown'],
  };
}

export async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: seen(error) };
  }
}
