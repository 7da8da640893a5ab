/**
 * The sandbox as one Fetch-style handler: authentication, the IP allow list, routing, idempotent
 * replay and the request log, in front of the synchronous state changes in `charges.ts` and
 * `refunds.ts`. MSW, the in-process dispatcher and the loopback server all call this, so they
 * cannot drift apart.
 */
import { createRefund } from './refunds.js';
import { dispatchCharge, resolveHandle, verifyCharge } from './charges.js';
import { SandboxError, failure, success, toResponse } from './http.js';
import type { SavedResponse } from './http.js';
import { fingerprint, lookup, remember } from './idempotency.js';
import type { SandboxState } from './state.js';
import { parseJsonObject } from './validate.js';

/** Who is calling, as the way of serving knows it. */
export interface SandboxRequestContext {
  /**
   * The caller's IP address, checked against the allow list. `listen()` passes the socket's
   * address; in process there is no socket, so the sandbox's `clientIp` option stands in.
   * @default the sandbox's `clientIp` option
   */
  clientIp?: string;
}

/** The test controls the `/_sandbox/` routes expose, for callers in other languages. @internal */
export interface ControlRoutes {
  authorize(reference: string): Promise<unknown>;
  decline(reference: string): Promise<unknown>;
  expire(reference: string): Promise<unknown>;
  reset(): void;
  state(): unknown;
}

/** What the handler needs from the sandbox. @internal */
export interface RouterContext {
  state: SandboxState;
  now: () => Date;
  promptTtlMs: number;
  defaultClientIp: string;
  controls: ControlRoutes;
}

type Route = { method: 'GET' | 'POST'; run: (body: string, request: Request) => SavedResponse };

const MAX_KEY_LENGTH = 255;

/** `::ffff:10.0.0.1` (IPv4 seen by an IPv6 socket) is the same caller as `10.0.0.1`. @internal */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

function authenticate(header: string | null): void {
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
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new SandboxError(400, 'The reference in the path is not valid percent-encoding.');
  }
}

function route(ctx: RouterContext, path: string): Route {
  const json = (request: Request, body: string) => parseJsonObject(body, request.headers.get('content-type'));
  switch (path) {
    case '/v1/charges/resolve-handle':
      return { method: 'POST', run: (body, req) => resolveHandle(ctx.state, json(req, body), ctx.now()) };
    case '/v1/charges/dispatch':
      return {
        method: 'POST',
        run: (body, req) => dispatchCharge(ctx.state, json(req, body), ctx.now(), ctx.promptTtlMs),
      };
    case '/v1/refunds':
      return { method: 'POST', run: (body, req) => createRefund(ctx.state, json(req, body), ctx.now()) };
  }
  const verify = /^\/v1\/charges\/verify\/([^/]+)$/.exec(path);
  if (verify?.[1] !== undefined) {
    const reference = decodeSegment(verify[1]);
    return { method: 'GET', run: () => verifyCharge(ctx.state, reference, ctx.now()) };
  }
  throw new SandboxError(404, `No endpoint at ${path}.`);
}

// Synchronous from the idempotency lookup to saving the answer: no other request can run in between,
// so two concurrent requests with one key act once and the second replays the first.
function answer(
  ctx: RouterContext,
  request: Request,
  path: string,
  body: string,
  clientIp: string,
): { response: SavedResponse; replayed: boolean } {
  authenticate(request.headers.get('authorization'));
  if (ctx.state.allowedIps !== undefined && !ctx.state.allowedIps.has(clientIp)) {
    throw new SandboxError(
      403,
      `Requests from ${clientIp} are not allowed: the IP is not on this key's allow list.`,
    );
  }
  const endpoint = route(ctx, path);
  if (endpoint.method !== request.method) {
    throw new SandboxError(405, `${path} accepts ${endpoint.method} only.`);
  }
  const run = (): SavedResponse => {
    try {
      return endpoint.run(body, request);
    } catch (error) {
      if (error instanceof SandboxError) return failure(error.status, error.message);
      throw error;
    }
  };
  const key = endpoint.method === 'POST' ? request.headers.get('x-idempotency-key') : null;
  if (key === null) return { response: run(), replayed: false };
  if (key.trim() === '' || key.length > MAX_KEY_LENGTH) {
    throw new SandboxError(400, `X-Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`);
  }
  const print = fingerprint(request.method, path, body);
  const found = lookup(ctx.state, key, print);
  if (found.kind !== 'new') return { response: found.response, replayed: found.kind === 'replay' };
  const response = run();
  remember(ctx.state, key, print, response);
  return { response, replayed: false };
}

async function control(ctx: RouterContext, request: Request, path: string): Promise<Response> {
  try {
    if (path === '/_sandbox/state' && request.method === 'GET')
      return toResponse(success(ctx.controls.state()));
    if (path === '/_sandbox/reset' && request.method === 'POST') {
      ctx.controls.reset();
      return toResponse(success(null, 'Sandbox reset'));
    }
    const match = /^\/_sandbox\/charges\/([^/]+)\/(authorize|decline|expire)$/.exec(path);
    if (match?.[1] !== undefined && match[2] !== undefined && request.method === 'POST') {
      const reference = decodeSegment(match[1]);
      const action = match[2] as 'authorize' | 'decline' | 'expire';
      const result = await ctx.controls[action](reference);
      return toResponse(success(result, `Charge ${action}d`));
    }
    throw new SandboxError(404, `No sandbox control at ${request.method} ${path}.`);
  } catch (error) {
    if (error instanceof SandboxError) return toResponse(failure(error.status, error.message));
    throw error;
  }
}

/**
 * Builds the sandbox's Fetch handler.
 * @internal
 */
export function createRouter(
  ctx: RouterContext,
): (request: Request, context?: SandboxRequestContext) => Promise<Response> {
  return async (request, context = {}) => {
    const url = new URL(request.url);
    const path = url.pathname;
    // The controls play the customer and the clock, not the merchant: no key, no allow list, no log.
    if (path.startsWith('/_sandbox/')) return control(ctx, request, path);
    const clientIp = normalizeIp(context.clientIp ?? ctx.defaultClientIp);
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    let outcome: { response: SavedResponse; replayed: boolean };
    try {
      outcome = answer(ctx, request, path, body, clientIp);
    } catch (error) {
      const response =
        error instanceof SandboxError
          ? failure(error.status, error.message)
          : failure(500, `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
      outcome = { response, replayed: false };
    }
    ctx.state.requests.push(
      Object.freeze({
        method: request.method,
        path,
        idempotencyKey: request.headers.get('x-idempotency-key'),
        status: outcome.response.status,
        replayed: outcome.replayed,
        clientIp,
        at: ctx.now().toISOString(),
      }),
    );
    return toResponse(outcome.response, outcome.replayed ? { 'idempotent-replayed': 'true' } : {});
  };
}
