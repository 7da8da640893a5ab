/**
 * The sandbox as one Fetch-style handler: routes relative to the base path, injected faults,
 * authentication, the IP allow list, idempotent replay and the request log, in front of the
 * endpoints in `service.ts` and the controls in `controls.ts`. MSW, the in-process dispatcher and
 * the loopback server all call this, so they cannot drift apart.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { SandboxError } from '../state/errors.js';
import type { SandboxRequestRecord } from '../state/records.js';
import { authenticate, checkAllowed, normalizeIp } from './access.js';
import { readBody } from './body.js';
import { control } from './controls.js';
import type { ControlContext } from './controls.js';
import { failure, refusal, toResponse } from './envelope.js';
import type { SavedResponse } from './envelope.js';
import type { Fault } from './faults.js';
import { holdPoll } from './hold.js';
import { fingerprint, storeKey } from './idempotency.js';
import type { IdempotencyStore } from './idempotency.js';
import { requestLine } from './log.js';
import type { SandboxLogger } from './log.js';
import { QR_PAGE_PREFIX } from '../page/qr-page.js';
import { endpointAt } from './service.js';
import type { ServiceContext } from './service.js';
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

/** What the handler needs from the sandbox. @internal */
export interface RouterContext extends ServiceContext {
  idempotency: IdempotencyStore;
  defaultClientIp: string;
  controls: ControlContext;
  /** The path of `baseUrl` (`''` or for example `/api`): every route is under it. */
  basePath: string;
  faults: (() => Fault) | undefined;
  logger: SandboxLogger | undefined;
}

/**
 * An answer; `otherRequest` when it was replayed for a key first used with a different request;
 * `front` when no endpoint serves the path (answered as a front server would).
 */
type Outcome = { response: SavedResponse; replayed: boolean; otherRequest?: boolean; front?: boolean };

// A path the service does not serve never reaches it: the web server in front answers, in plain
// text, not the service's envelope. So a wrong base URL shows as `endpoint_not_found`.
const NOT_SERVED: Outcome = { response: { status: 404, body: 'Not Found\n' }, replayed: false, front: true };

function served(ctx: RouterContext, path: string | undefined, pageBase: string): path is string {
  if (path === undefined) return false;
  try {
    endpointAt(ctx, path, pageBase);
    return true;
  } catch (error) {
    // Only "no such endpoint": a served path with a bad segment is the service's own 400.
    return !(error instanceof SandboxError && error.status === 404);
  }
}

const MAX_KEY_LENGTH = 255;
const TEXT = { 'content-type': 'text/plain; charset=utf-8' } as const;

// Synchronous from the idempotency lookup to saving the answer: no other request can run in between,
// so two concurrent requests with one key act once and the second replays the first.
function answer(
  ctx: RouterContext,
  request: Request,
  path: string,
  body: string,
  clientIp: string,
  pageBase: string,
): Outcome {
  const apiKey = authenticate(request.headers.get('authorization'));
  checkAllowed(ctx.state.allowedIps, clientIp);
  const endpoint = endpointAt(ctx, path, pageBase);
  if (endpoint.method !== request.method) {
    throw new SandboxError(405, `${path} accepts ${endpoint.method} only.`);
  }
  const run = (): SavedResponse => {
    try {
      return endpoint.run(() => parseJsonObject(body, request.headers.get('content-type')));
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
  const stored = storeKey(apiKey, key);
  const found = ctx.idempotency.lookup(stored, print);
  if (found !== undefined) {
    return { response: found.response, replayed: true, otherRequest: !found.sameRequest };
  }
  const response = run();
  ctx.idempotency.remember(stored, print, response);
  return { response, replayed: false };
}

/** The path under `basePath`, or `undefined` for a path outside it. */
function relativePath(path: string, basePath: string): string | undefined {
  if (basePath === '') return path;
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

// Everything but the injected delay and the body read is synchronous, from the idempotency lookup
// to saving the answer: see answer().
async function serve(
  ctx: RouterContext,
  request: Request,
  path: string | undefined,
  clientIp: string,
  fault: Fault | undefined,
  pageBase: string,
): Promise<Outcome> {
  if (!served(ctx, path, pageBase)) return NOT_SERVED;
  if (fault !== undefined && fault.delayMs > 0) await sleep(fault.delayMs);
  if (fault?.kind === 'error') {
    return { response: failure(fault.status, 'Injected fault: the sandbox did not act.'), replayed: false };
  }
  if (fault?.kind === 'reset') return { response: failure(502, 'Injected reset.'), replayed: false };
  if (fault?.kind === 'rate-limit') {
    return { response: failure(429, 'Injected rate limit: the sandbox did not act.'), replayed: false };
  }
  try {
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await readBody(request);
    await holdPoll(ctx.state, ctx.clock, request, path);
    return answer(ctx, request, path, body, clientIp, pageBase);
  } catch (error) {
    return { response: refusal(error), replayed: false };
  }
}

/**
 * Builds the sandbox's Fetch handler. A reset (an injected fault) is answered `Response.error()`,
 * which each way of serving turns into a dropped connection.
 * @internal
 */
export function createRouter(
  ctx: RouterContext,
): (request: Request, context?: SandboxRequestContext) => Promise<Response> {
  return async (request, context = {}) => {
    const started = performance.now();
    const at = ctx.now().toISOString();
    const url = new URL(request.url);
    const path = relativePath(url.pathname, ctx.basePath);
    const pageBase = `${url.origin}${ctx.basePath}${QR_PAGE_PREFIX}`;
    if (path?.startsWith('/_sandbox/')) return control(ctx.controls, request, path, pageBase);
    const clientIp = normalizeIp(context.clientIp ?? ctx.defaultClientIp);
    const fault = ctx.faults?.();
    const outcome = await serve(ctx, request, path, clientIp, fault, pageBase);
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
    const line = requestLine(record, outcome.otherRequest === true);
    if (record.status >= 500 || record.fault !== null || outcome.otherRequest === true)
      ctx.logger?.warn(line);
    else ctx.logger?.info(line);
    if (outcome.front === true) return new Response(outcome.response.body, { status: 404, headers: TEXT });
    if (fault?.kind === 'reset' || fault?.kind === 'reset-after') return Response.error();
    if (fault?.kind === 'rate-limit')
      return toResponse(outcome.response, { 'retry-after': String(fault.retryAfter) });
    return toResponse(outcome.response, outcome.replayed ? { 'idempotent-replayed': 'true' } : {});
  };
}
