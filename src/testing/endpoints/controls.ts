/**
 * The `/_sandbox/` routes: the test controls for callers in other languages (and curl), and the
 * customer page of a QR charge. They play the customer and the clock, not the merchant: no key, no
 * allow list, no faults, and they are not in the request log.
 */
import { QR_PAGE_PREFIX } from '../page/qr-page.js';
import { SandboxError } from '../state/errors.js';
import type { SandboxCharge } from '../state/records.js';
import type { SandboxState } from '../state/store.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import { failure, success, toResponse } from './envelope.js';
import { qrRoute } from './qr-route.js';
import type { CustomerControls } from './qr-route.js';
import { decodeSegment } from './service.js';

/** The test controls the `/_sandbox/` routes expose. @internal */
export interface ControlRoutes extends CustomerControls {
  authorize(reference: string): Promise<{ charge: SandboxCharge; webhook: WebhookDelivery | null }>;
  expire(reference: string): Promise<SandboxCharge>;
  redeliver(reference: string): Promise<WebhookDelivery>;
  reset(): void;
  state(): unknown;
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
    const match = /^\/_sandbox\/charges\/([^/]+)\/(authorize|decline|expire|redeliver)$/.exec(path);
    if (match?.[1] !== undefined && match[2] !== undefined && request.method === 'POST') {
      return await chargeAction(controls, decodeSegment(match[1]), match[2]);
    }
    throw new SandboxError(404, `No sandbox control at ${request.method} ${path}.`);
  } catch (error) {
    if (error instanceof SandboxError) return toResponse(failure(error.status, error.message));
    throw error;
  }
}
