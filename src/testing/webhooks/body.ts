/**
 * The body of a delivery: indented JSON with a final newline, bytes `JSON.stringify(JSON.parse(body))`
 * does not give back, so a handler verifying a re-serialized body fails here in development, as it
 * would against the service. Shared with `wallet webhooks trigger` (via `@wallet/node/workspace`).
 * @internal
 */
export function webhookBody(event: string, data: unknown): string {
  return `${JSON.stringify({ event, data }, null, 2)}\n`;
}
