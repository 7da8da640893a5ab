/**
 * Who may call: any `sk_test_` key (a live key is refused, the sandbox moves no money), from an
 * address on the allow list when one is set. Checked before any endpoint acts.
 */
import { SandboxError } from '../state/errors.js';

/** `::ffff:10.0.0.1` (IPv4 seen by an IPv6 socket) is the same caller as `10.0.0.1`. @internal */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

/** The API key of a request, or a 401 that says what is wrong with it. @internal */
export function authenticate(header: string | null): string {
  const match = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  if (key === undefined) {
    throw new SandboxError(
      401,
      "Missing or malformed Authorization header; send 'Authorization: Bearer sk_test_...'.",
    );
  }
  if (key.startsWith('sk_live_')) {
    throw new SandboxError(
      401,
      'Live keys (sk_live_...) are refused: the sandbox moves no money. Use an sk_test_ key.',
    );
  }
  if (!key.startsWith('sk_test_') || key.length === 'sk_test_'.length) {
    throw new SandboxError(401, 'Invalid secret key: the sandbox accepts any key that starts with sk_test_.');
  }
  return key;
}

/** Refuses a caller outside the allow list with a 403. @internal */
export function checkAllowed(allowedIps: ReadonlySet<string> | undefined, clientIp: string): void {
  if (allowedIps !== undefined && !allowedIps.has(clientIp)) {
    throw new SandboxError(
      403,
      `Requests from ${clientIp} are not allowed: the IP is not on this key's allow list.`,
    );
  }
}
