/**
 * The bytes of a webhook delivery as the sandbox sends them: the one place their form is written,
 * used by the sandbox's deliveries and by `wallet webhooks trigger` (through the internal subpath
 * `@wallet/node/workspace`), so both sign the same bytes.
 */

/**
 * The body of a delivery: indented JSON with a final newline, bytes that
 * `JSON.stringify(JSON.parse(body))` does not give back, so a handler that verifies a re-serialized
 * body (`JSON.stringify(req.body)`) fails here in development, as it would against the service.
 * @internal
 */
export function webhookBody(event: string, data: unknown): string {
  return `${JSON.stringify({ event, data }, null, 2)}\n`;
}
