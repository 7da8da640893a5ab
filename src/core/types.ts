import type { Route } from '../internal/values.js';
import type { SchemaName } from '../schemas/index.js';
import type { Echo } from './idempotency.js';

// The shapes core's files pass each other; types only, below every other file of core.

/** One operation as a resource declares it, once; the transport does the rest. */
export interface Operation {
  method: 'GET' | 'POST';
  /** What the parameters are called in messages, for example `dispatch parameters`. */
  paramsName: string;
  /** The route (the `path` tag): its template for tracing, its path from the checked parameters. */
  route: Route;
  paramsSchema: SchemaName;
  dataSchema: SchemaName;
  /** What the call is, for messages: `refund of ₦4,500.00 (450000 Kobo) on order_1042`. */
  summary?: (params: Record<string, unknown>) => string;
  /** How to confirm an unknown outcome, for example `charges.verify('order_1042')`; none for a refund. */
  confirm?: (params: Record<string, unknown>) => string;
  /** Response fields that must echo parameters, else the answer is another request's (`replay_mismatch`). */
  echoes?: readonly Echo[];
}

/** Told of a checked answer before the call resolves: it may remember it (an expiry) or refuse it by throwing. */
export type Accepted = (data: unknown, response: ResponseMeta, params: Record<string, unknown>) => void;

/** What one attempt sends. Header names are lowercase, one of each. */
export interface AttemptRequest {
  /** `origin + path`, for fetch. */
  url: string;
  /** For example `https://api.example.ng`. */
  origin: string;
  /** For example `/v1/refunds`. */
  path: string;
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  /** Milliseconds from connecting to the last byte of the body. */
  timeout: number;
  /** The caller's signal: ends the attempt at once. */
  signal: AbortSignal | undefined;
}

/** How one attempt ended. Header names are lowercase, repeats joined with `, `. */
export type AttemptResult =
  | {
      kind: 'response';
      status: number;
      headers: Record<string, string>;
      text: string;
      /** Set when the body could not be decoded (its Content-Encoding): what went wrong. */
      undecoded?: string | undefined;
      /** Set when a try before this answer's went out (a merchant's RetryAgent): that one may have acted. */
      resent?: true;
    }
  | { kind: 'too_large'; status: number; headers: Record<string, string>; limit: number; resent?: true }
  | {
      kind: 'failure';
      /** `refused`: the HTTP layer refused to send it (nothing left the process). */
      reason: 'timeout' | 'network' | 'refused' | 'aborted';
      /** May the request have reached the service? False only when provably not (DNS, refused, local). */
      reached: boolean;
      /** The system or library error code, for messages: `ECONNREFUSED`, `UND_ERR_SOCKET`. */
      code: string | undefined;
      cause: unknown;
    };

/** One way of sending. */
export type Sender = (request: AttemptRequest) => Promise<AttemptResult>;

/** A Fetch-compatible function: the runtime's `fetch`, or one a merchant wraps. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** What a successful call reports besides its data. */
export interface ResponseMeta {
  /** HTTP status code. */
  status: number;
  /** Response headers, lowercase names. */
  headers: Readonly<Record<string, string>>;
  /** The envelope's human-readable `message`; the verify endpoint sends none. */
  message: string | undefined;
  /** The `X-Idempotency-Key` the call sent (POST only): keep it to prove what was asked. */
  idempotencyKey: string | undefined;
  /** How many attempts it took: 1 when no retry was needed. */
  attempts: number;
}

/** A call's data together with its {@link ResponseMeta}. */
export interface WithResponse<T> {
  /** The envelope's `data`, checked and typed. */
  data: T;
  /** Status, headers, message, idempotency key and attempts. */
  response: ResponseMeta;
}
