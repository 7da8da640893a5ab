/**
 * The service's response envelopes. Every answer the endpoints give goes through here, so all three
 * ways of serving the sandbox answer byte for byte the same.
 */
import { SandboxError } from '../state/errors.js';

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

/** The error envelope of a refusal; anything but a {@link SandboxError} is the sandbox's own 500. @internal */
export function refusal(error: unknown): SavedResponse {
  if (error instanceof SandboxError) return failure(error.status, error.message);
  return failure(500, `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** Builds the Fetch `Response` for a saved answer; `extra` adds headers such as `Idempotent-Replayed`. @internal */
export function toResponse(saved: SavedResponse, extra: Record<string, string> = {}): Response {
  return new Response(saved.body, { status: saved.status, headers: { ...JSON_HEADERS, ...extra } });
}
