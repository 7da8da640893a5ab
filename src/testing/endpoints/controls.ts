/**
 * The `/_sandbox/` routes: the test controls for callers in other languages (and curl), and the
 * customer page of a QR charge. They play the customer and the clock, not the merchant: no key, no
 * allow list, no faults, and they are not in the request log.
 */
import { isValidationError } from '../../errors/guards.js';
import { QR_PAGE_PREFIX, pageResponse, svgResponse, wantsImage } from '../page/qr-page.js';
import { SandboxError } from '../state/errors.js';
import type { SandboxCharge } from '../state/records.js';
import type { SandboxSeedResult } from '../state/seed.js';
import type { SandboxState } from '../state/store.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import { readBody, readSeed } from './body.js';
import { failure, success, toResponse } from './envelope.js';
import { decodeSegment } from './service.js';
import { parseJsonObject } from './validate.js';

/** What the customer page acts through: the test controls that play the customer. @internal */
export interface CustomerControls {
  authorize(reference: string): Promise<unknown>;
  decline(reference: string): Promise<SandboxCharge>;
  charge(reference: string): SandboxCharge | undefined;
}

/** Answers a route under the QR page prefix; `rest` is the path after it. @internal */
export async function qrRoute(
  controls: CustomerControls,
  state: SandboxState,
  request: Request,
  rest: string,
  pageBase: string,
): Promise<Response> {
  const match = /^([0-9a-f]{32})(?:\/(qr\.svg|authorize|decline))?$/.exec(rest);
  const id = match?.[1];
  const reference = id === undefined ? undefined : state.qrCodes.get(id);
  const charge = reference === undefined ? undefined : controls.charge(reference);
  if (id === undefined || charge === undefined) {
    throw new SandboxError(404, 'No such QR code: it expired with a reset, or a newer prompt replaced it.');
  }
  const pageUrl = `${pageBase}${id}`;
  const action = match?.[2];
  if (action === 'qr.svg' || (action === undefined && wantsImage(request.headers.get('accept')))) {
    if (request.method !== 'GET') throw new SandboxError(405, 'The QR image accepts GET only.');
    return svgResponse(pageUrl);
  }
  if (action === undefined) {
    if (request.method !== 'GET') throw new SandboxError(405, 'The QR page accepts GET only.');
    return pageResponse({ charge, pageUrl });
  }
  if (request.method !== 'POST') throw new SandboxError(405, `${action} accepts POST only.`);
  try {
    await (action === 'authorize'
      ? controls.authorize(charge.reference)
      : controls.decline(charge.reference));
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const now = controls.charge(charge.reference) ?? charge;
    return pageResponse({ charge: now, pageUrl, notice: error.message }, error.status);
  }
  // Post/redirect/get: a reload of the page shows the outcome and does not act twice.
  return new Response(null, { status: 303, headers: { location: new URL(pageUrl).pathname } });
}

/** The test controls the `/_sandbox/` routes expose. @internal */
export interface ControlRoutes extends CustomerControls {
  authorize(reference: string): Promise<{ charge: SandboxCharge; webhook: WebhookDelivery | null }>;
  expire(reference: string): Promise<SandboxCharge>;
  redeliver(reference: string): Promise<WebhookDelivery>;
  replay(id: string): Promise<WebhookDelivery>;
  deliveries(): unknown;
  reset(): void;
  state(): unknown;
  /** Seeds charges; throws a `ValidationError` naming the bad rows. */
  seed(rows: readonly unknown[]): SandboxSeedResult;
  /** The clock: `{ clock: 'real' | 'manual', now }`. */
  clock(): { clock: string; now: string };
  /** Moves the manual clock by `ms` (checked; a `ValidationError` names a bad one). */
  advance(ms: unknown): { clock: string; now: string };
  /** Sets where webhooks go (`{ url, secret }`), or stops them (`{ url: null }`). */
  setWebhook(target: unknown): { url: string } | null;
}

/** The JSON of a delivery as a control route answers it (the `settled` promise cannot travel). */
function deliveryJson(webhook: WebhookDelivery | null): unknown {
  if (webhook === null) return null;
  return { delivered: webhook.delivered, retrying: webhook.retrying, attempts: webhook.attempts };
}

async function chargeAction(controls: ControlRoutes, reference: string, action: string): Promise<Response> {
  switch (action) {
    case 'authorize': {
      const { charge, webhook } = await controls.authorize(reference);
      return toResponse(success({ charge, webhook: deliveryJson(webhook) }, 'Charge authorized'));
    }
    case 'redeliver':
      return toResponse(success(deliveryJson(await controls.redeliver(reference)), 'Webhook redelivered'));
    case 'decline':
      return toResponse(success(await controls.decline(reference), 'Charge declined'));
    default:
      return toResponse(success(await controls.expire(reference), 'Charge expired'));
  }
}

/**
 * Answers a `/_sandbox/` route. `path` is relative to the base path; `pageBase` is the absolute
 * URL QR pages live under.
 * @internal
 */
export async function control(
  controls: ControlRoutes,
  state: SandboxState,
  request: Request,
  path: string,
  pageBase: string,
): Promise<Response> {
  try {
    if (path.startsWith(QR_PAGE_PREFIX)) {
      return await qrRoute(controls, state, request, path.slice(QR_PAGE_PREFIX.length), pageBase);
    }
    if (path === '/_sandbox/state' && request.method === 'GET') return toResponse(success(controls.state()));
    if (path === '/_sandbox/reset' && request.method === 'POST') {
      controls.reset();
      return toResponse(success(null, 'Sandbox reset'));
    }
    if (path === '/_sandbox/seed' && request.method === 'POST') {
      const result = controls.seed(await readSeed(request));
      return toResponse(success(result, `Seeded ${result.seeded} charges`));
    }
    if (path === '/_sandbox/webhook' && request.method === 'POST') {
      const body = parseJsonObject(await readBody(request), request.headers.get('content-type'));
      const target = controls.setWebhook(body);
      return toResponse(success(target, target === null ? 'Webhooks off' : `Webhooks go to ${target.url}`));
    }
    if (path === '/_sandbox/deliveries' && request.method === 'GET') {
      return toResponse(success(controls.deliveries()));
    }
    const replay = /^\/_sandbox\/deliveries\/([^/]+)\/replay$/.exec(path)?.[1];
    if (replay !== undefined && request.method === 'POST') {
      const webhook = await controls.replay(decodeSegment(replay));
      return toResponse(success(deliveryJson(webhook), 'Delivery replayed'));
    }
    if (path === '/_sandbox/clock' && request.method === 'GET') return toResponse(success(controls.clock()));
    if (path === '/_sandbox/clock' && request.method === 'POST') {
      const body = parseJsonObject(await readBody(request), request.headers.get('content-type'));
      const clock = controls.advance(body.advance);
      return toResponse(success(clock, `Clock advanced to ${clock.now}`));
    }
    const match = /^\/_sandbox\/charges\/([^/]+)\/(authorize|decline|expire|redeliver)$/.exec(path);
    if (match?.[1] !== undefined && match[2] !== undefined && request.method === 'POST') {
      return await chargeAction(controls, decodeSegment(match[1]), match[2]);
    }
    throw new SandboxError(404, `No sandbox control at ${request.method} ${path}.`);
  } catch (error) {
    if (error instanceof SandboxError) return toResponse(failure(error.status, error.message));
    if (isValidationError(error)) return toResponse(failure(400, error.message));
    throw error;
  }
}
