/** The `/_sandbox/` routes, test controls and QR pages: no key, no allow list, no faults, no request log. */
import { isValidationError } from '../errors/base.js';
import type { Sandbox } from './api.js';
import { decodeSegment } from './endpoints/service.js';
import { failure, parseJsonObject, readBody, readSeed, success, toResponse } from './endpoints/wire.js';
import type { JsonObject, SavedResponse } from './endpoints/wire.js';
import { QR_PAGE_PREFIX, pageResponse, svgResponse, wantsImage } from './page/qr-page.js';
import { SandboxError } from './state/records.js';
import type { SandboxClock } from './state/clock.js';
import type { SandboxSeedCharge } from './state/seed.js';
import type { SandboxState } from './state/store.js';
import type { WebhookDelivery, WebhookTarget } from './webhooks/sender.js';

/** Answers a route under the QR page prefix; `rest` is the path after it. */
async function qrRoute(
  ctx: ControlContext,
  request: Request,
  rest: string,
  pageBase: string,
): Promise<Response> {
  const { sandbox, state } = ctx;
  const [, id = '', action] = /^([0-9a-f]{32})(?:\/(qr\.svg|authorize|decline))?$/.exec(rest) ?? [];
  const reference = state.qrCodes.get(id);
  const charge = reference === undefined ? undefined : sandbox.charge(reference);
  if (charge === undefined)
    throw new SandboxError(404, 'No such QR code: it expired with a reset, or a newer prompt replaced it.');
  const pageUrl = `${pageBase}${id}`;
  if (action === 'qr.svg' || (action === undefined && wantsImage(request.headers.get('accept')))) {
    if (request.method !== 'GET') throw new SandboxError(405, 'The QR image accepts GET only.');
    return svgResponse(pageUrl);
  }
  if (action === undefined) {
    if (request.method !== 'GET') throw new SandboxError(405, 'The QR page accepts GET only.');
    return pageResponse(charge, pageUrl);
  }
  if (request.method !== 'POST') throw new SandboxError(405, `${action} accepts POST only.`);
  try {
    await (action === 'authorize' ? sandbox.authorize(charge.reference) : sandbox.decline(charge.reference));
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return pageResponse(sandbox.charge(charge.reference) ?? charge, pageUrl, error.message, error.status);
  }
  // Post/redirect/get: a reload of the page shows the outcome and does not act twice.
  return new Response(null, { status: 303, headers: { location: new URL(pageUrl).pathname } });
}

/** What the controls need beyond the sandbox's public methods; `webhookUrl` is where webhooks go now. @internal */
export interface ControlContext {
  sandbox: Sandbox;
  state: SandboxState;
  webhookUrl: () => string | null;
  clock: SandboxClock;
}

/** A delivery as JSON (its `settled` promise cannot travel). */
function deliveryJson(webhook: WebhookDelivery | null): unknown {
  return webhook && { delivered: webhook.delivered, retrying: webhook.retrying, attempts: webhook.attempts };
}

async function route(ctx: ControlContext, request: Request, path: string): Promise<SavedResponse> {
  const { sandbox } = ctx;
  const json = async (): Promise<JsonObject> =>
    parseJsonObject(await readBody(request), request.headers.get('content-type'));
  const clock = (): unknown => ({ clock: ctx.clock, now: sandbox.now().toISOString() });
  const post = request.method === 'POST';
  switch (`${post ? 'POST' : 'GET'} ${path}`) {
    case 'GET /_sandbox/state': {
      const { charges, refunds, debits, deliveries, requests } = sandbox;
      return success({ webhookUrl: ctx.webhookUrl(), charges, refunds, debits, deliveries, requests });
    }
    case 'POST /_sandbox/reset':
      sandbox.reset();
      return success(null, 'Sandbox reset');
    case 'POST /_sandbox/seed': {
      const result = sandbox.seed((await readSeed(request)) as SandboxSeedCharge[]);
      return success(result, `Seeded ${result.seeded} charges`);
    }
    case 'POST /_sandbox/webhook': {
      const target = await json();
      sandbox.setWebhook(target.url == null ? undefined : (target as unknown as WebhookTarget));
      const url = ctx.webhookUrl();
      return success(url === null ? null : { url }, url === null ? 'Webhooks off' : `Webhooks go to ${url}`);
    }
    case 'GET /_sandbox/deliveries':
      return success(sandbox.deliveries);
    case 'GET /_sandbox/clock':
      return success(clock());
    case 'POST /_sandbox/clock':
      sandbox.advance((await json()).advance as number);
      return success(clock(), `Clock advanced to ${sandbox.now().toISOString()}`);
  }
  const replay = /^\/_sandbox\/deliveries\/([^/]+)\/replay$/.exec(path)?.[1];
  if (replay !== undefined && post)
    return success(deliveryJson(await sandbox.replay(decodeSegment(replay))), 'Delivery replayed');
  const [, raw, action] =
    /^\/_sandbox\/charges\/([^/]+)\/(authorize|decline|expire|redeliver)$/.exec(path) ?? [];
  if (raw === undefined || !post)
    throw new SandboxError(404, `No sandbox control at ${request.method} ${path}.`);
  const reference = decodeSegment(raw);
  switch (action) {
    case 'authorize': {
      const { charge, webhook } = await sandbox.authorize(reference);
      return success({ charge, webhook: deliveryJson(webhook) }, 'Charge authorized');
    }
    case 'redeliver':
      return success(deliveryJson(await sandbox.redeliver(reference)), 'Webhook redelivered');
    case 'decline':
      return success(await sandbox.decline(reference), 'Charge declined');
    default:
      return success(await sandbox.expire(reference), 'Charge expired');
  }
}

/** Answers a `/_sandbox/` route with the public method a test would call, so the two cannot drift. @internal */
export async function control(
  ctx: ControlContext,
  request: Request,
  path: string,
  pageBase: string,
): Promise<Response> {
  try {
    if (!path.startsWith(QR_PAGE_PREFIX)) return toResponse(await route(ctx, request, path));
    return await qrRoute(ctx, request, path.slice(QR_PAGE_PREFIX.length), pageBase);
  } catch (error) {
    if (error instanceof SandboxError) return toResponse(failure(error.status, error.message));
    if (isValidationError(error)) return toResponse(failure(400, error.message));
    throw error;
  }
}
