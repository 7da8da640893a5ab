/** The one Fetch-style handler every transport calls: routing, faults, who may call, the log, idempotent replay. */
import { createHash } from 'node:crypto';

import { QR_PAGE_PREFIX } from '../page/qr-page.js';
import { SandboxError, type SandboxRequestRecord } from '../state/records.js';
import type { Fault } from './faults.js';
import { requestLine, type LogLines } from './log.js';
import { endpointAt, holdPoll, type Endpoint, type ServiceContext } from './service.js';
import { failure, parseJsonObject, readBody, refusal, toResponse, type SavedResponse } from './wire.js';

/** Who is calling, as the way of serving knows it. */
export interface SandboxRequestContext {
  /** The caller's IP, checked against the allow list; `listen()` passes the socket's. @default the `clientIp` option */
  clientIp?: string;
}

/** A Fetch-style handler of the whole sandbox. @internal */
export type Handle = (request: Request, context?: SandboxRequestContext) => Promise<Response>;

/** What the handler needs; `basePath` (`''` or for example `/api`) prefixes every route. @internal */
export interface RouterContext extends ServiceContext {
  defaultClientIp: string;
  basePath: string;
  faults: (() => Fault) | undefined;
  logger: LogLines;
  control: (request: Request, path: string, pageBase: string) => Promise<Response>;
}

/** `::ffff:10.0.0.1` (IPv4 seen by an IPv6 socket) is the same caller as `10.0.0.1`. @internal */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

const sortKeys = (_key: string, value: unknown): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
    : value;

/** Method, path and body (JSON with its keys sorted), hashed. */
function fingerprint(method: string, path: string, body: string): string {
  let normalized = body;
  try {
    normalized = JSON.stringify(JSON.parse(body), sortKeys);
  } catch {
    // Not JSON: compared as sent.
  }
  return createHash('sha256').update(`${method} ${path}\n${normalized}`).digest('base64');
}

/** An answer; `otherRequest` when it replays a key first used for another request; `cut` by reset or close. */
type Outcome = { response: SavedResponse; replayed: boolean; otherRequest?: boolean; cut?: true };

/** A request to an endpoint the service serves; a path with a bad segment is its own 400. */
type Call = { request: Request; path: string; endpoint: Endpoint | SandboxError; clientIp: string };

/** The caller's API key, or the 401 or 403 that refuses the caller. */
function admit(ctx: RouterContext, { request, clientIp }: Call): string {
  const header = request.headers.get('authorization');
  const key = header === null ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (!key?.startsWith('sk_test_') || key.length === 'sk_test_'.length)
    throw new SandboxError(
      401,
      key === undefined
        ? "Missing or malformed Authorization header; send 'Authorization: Bearer sk_test_...'."
        : key.startsWith('sk_live_')
          ? 'Live keys (sk_live_...) are refused: the sandbox moves no money. Use an sk_test_ key.'
          : 'Invalid secret key: the sandbox accepts any key that starts with sk_test_.',
    );
  if (ctx.state.allowedIps !== undefined && !ctx.state.allowedIps.has(clientIp))
    throw new SandboxError(
      403,
      `Requests from ${clientIp} are not allowed: the IP is not on this key's allow list.`,
    );
  return key;
}

const MAX_KEY_LENGTH = 255;

// Synchronous from the idempotency lookup to saving the answer: no other request can run in between,
// so two concurrent requests with one key act once and the second replays the first.
function answer(ctx: RouterContext, call: Call, body: string): Outcome {
  const { request, path, endpoint } = call;
  const apiKey = admit(ctx, call);
  if (endpoint instanceof SandboxError) throw endpoint;
  if (endpoint.method !== request.method)
    throw new SandboxError(405, `${path} accepts ${endpoint.method} only.`);
  const run = (): SavedResponse => {
    try {
      return endpoint.run(() => parseJsonObject(body, request.headers.get('content-type')));
    } catch (error) {
      if (error instanceof SandboxError) return refusal(error);
      throw error;
    }
  };
  const key = endpoint.method === 'POST' ? request.headers.get('x-idempotency-key') : null;
  if (key === null) return { response: run(), replayed: false };
  if (key.trim() === '' || key.length > MAX_KEY_LENGTH)
    throw new SandboxError(400, `X-Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`);
  // Saved unless refused before acting: 400, 401, 403 (fix and resend), 503 full (resend once there is
  // room: the SDK's own retries reuse the key). Past the limit the oldest goes, as keys expire.
  const { answers, limits } = ctx.state;
  const stored = `${createHash('sha256').update(apiKey).digest('base64')} ${key}`;
  const print = fingerprint(request.method, path, body);
  const entry = answers.get(stored);
  if (entry) return { response: entry.response, replayed: true, otherRequest: entry.fingerprint !== print };
  const response = run();
  if (![400, 401, 403, 503].includes(response.status)) {
    answers.set(stored, { fingerprint: print, response });
    if (answers.size > limits.answers) answers.delete(answers.keys().next().value!);
  }
  return { response, replayed: false };
}

// Everything but the injected delay, the body read and a held poll is synchronous: see answer().
async function serve(ctx: RouterContext, call: Call, fault: Fault | undefined): Promise<Outcome> {
  const { request, endpoint } = call;
  const refused = (response: SavedResponse): Outcome => ({ response, replayed: false });
  const cut = 'Closed or reset during the injected delay: the sandbox did not act.';
  // Cut by close() or reset(): acts on nothing, and says so with a 4xx (a retried 5xx lands in the next test).
  if (fault !== undefined && fault.delayMs > 0 && !(await ctx.clock.pause(fault.delayMs)))
    return { response: failure(410, cut), replayed: false, cut: true }; // answered as is, whatever the fault
  if (fault?.kind === 'error')
    return refused(failure(fault.status, 'Injected fault: the sandbox did not act.'));
  if (fault?.kind === 'reset') return refused(failure(502, 'Injected reset.'));
  if (fault?.kind === 'rate-limit')
    return refused(failure(429, 'Injected rate limit: the sandbox did not act.'));
  try {
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await readBody(request);
    // Refused before the hold (held, a 401 or 403 would read as "no outcome yet"), and again after it.
    if (!(endpoint instanceof SandboxError)) {
      admit(ctx, call);
      await holdPoll(ctx, request, endpoint.reference);
    }
    return answer(ctx, call, body);
  } catch (error) {
    return refused(refusal(error));
  }
}

/** The path under `basePath`, or `undefined` for a path outside it. */
function under(path: string, basePath: string): string | undefined {
  if (basePath === '' || path === basePath) return path.slice(basePath.length) || '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

/** Builds the sandbox's Fetch handler; an injected reset is answered `Response.error()`. @internal */
export function createRouter(ctx: RouterContext): Handle {
  return async (request, context = {}) => {
    const started = performance.now();
    const at = ctx.clock.now().toISOString();
    const url = new URL(request.url);
    const path = under(url.pathname, ctx.basePath);
    const pageBase = `${url.origin}${ctx.basePath}${QR_PAGE_PREFIX}`;
    if (path?.startsWith('/_sandbox/')) return ctx.control(request, path, pageBase);
    const clientIp = normalizeIp(context.clientIp ?? ctx.defaultClientIp);
    const drawn = ctx.faults?.(); // drawn for every request, so a seed's sequence stays the same
    // A path the service does not serve gets the front server's plain 404 (`endpoint_not_found`), unfaulted.
    const endpoint = path === undefined ? undefined : endpointAt(ctx, path, pageBase);
    const front = path === undefined || endpoint === undefined;
    const fault = front ? undefined : drawn;
    const outcome: Outcome = front
      ? { response: { status: 404, body: 'Not Found\n' }, replayed: false }
      : await serve(ctx, { request, path, endpoint, clientIp }, fault);
    const record: SandboxRequestRecord = Object.freeze({
      method: request.method,
      path: url.pathname,
      idempotencyKey: request.headers.get('x-idempotency-key'),
      status: outcome.response.status,
      replayed: outcome.replayed,
      clientIp,
      fault: fault?.kind ?? null,
      at,
      durationMs: performance.now() - started,
    });
    ctx.state.requests.push(record);
    const otherRequest = outcome.otherRequest === true;
    const level = record.status >= 500 || record.fault !== null || otherRequest ? 'warn' : 'info';
    ctx.logger.write(level, requestLine(record, otherRequest));
    if (front) return toResponse(outcome.response, { 'content-type': 'text/plain; charset=utf-8' });
    if (!outcome.cut && (fault?.kind === 'reset' || fault?.kind === 'reset-after')) return Response.error();
    if (fault?.kind === 'rate-limit')
      return toResponse(outcome.response, { 'retry-after': String(fault.retryAfter) });
    return toResponse(outcome.response, outcome.replayed ? { 'idempotent-replayed': 'true' } : {});
  };
}
