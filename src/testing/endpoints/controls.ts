/**
 * The `/_sandbox/` routes: the test controls for callers in other languages (and curl), and the
 * customer page of a QR charge. They play the customer and the clock, not the merchant: no key, no
 * allow list, no faults, and they are not in the request log.
 */
import { isValidationError } from '../../errors/base.js';
import { QR_PAGE_PREFIX, pageResponse, svgResponse, wantsImage } from '../page/qr-page.js';
import { SandboxError } from '../state/errors.js';
import type {
  SandboxCharge,
  SandboxDebit,
  SandboxDeliveryAttempt,
  SandboxRefund,
  SandboxRequestRecord,
} from '../state/records.js';
import type { SandboxSeedResult } from '../state/seed.js';
import type { SandboxClock } from '../state/clock.js';
import type { SandboxSeedCharge } from '../state/seed.js';
import type { SandboxState } from '../state/store.js';
import type { WebhookDelivery } from '../webhooks/delivery.js';
import type { WebhookTarget } from '../webhooks/sender.js';
import { readBody, readSeed } from './body.js';
import { failure, success, toResponse } from './envelope.js';
import { decodeSegment } from './service.js';
import { parseJsonObject } from './validate.js';
import type { JsonObject } from './validate.js';

/** Answers a route under the QR page prefix; `rest` is the path after it. @internal */
export async function qrRoute(
  controls: Sandbox,
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

/** The sandbox's public methods the controls call (the `Sandbox` type lives a room above). @internal */
export interface Sandbox {
  authorize(reference: string): Promise<{ charge: SandboxCharge; webhook: WebhookDelivery | null }>;
  decline(reference: string): Promise<SandboxCharge>;
  expire(reference: string): Promise<SandboxCharge>;
  redeliver(reference: string): Promise<WebhookDelivery>;
  replay(id: string): Promise<WebhookDelivery>;
  charge(reference: string): SandboxCharge | undefined;
  seed(charges: readonly SandboxSeedCharge[]): SandboxSeedResult;
  setWebhook(target: WebhookTarget | undefined): void;
  advance(ms: number): Date;
  now(): Date;
  reset(): void;
  readonly charges: readonly SandboxCharge[];
  readonly refunds: readonly SandboxRefund[];
  readonly debits: readonly SandboxDebit[];
  readonly deliveries: readonly SandboxDeliveryAttempt[];
  readonly requests: readonly SandboxRequestRecord[];
}

/** What the controls need beyond the sandbox's public methods. @internal */
export interface ControlContext {
  sandbox: Sandbox;
  state: SandboxState;
  /** Where webhooks go now, or `null`. */
  webhookUrl: () => string | null;
  clock: SandboxClock;
}

/** The JSON of a delivery as a control route answers it (the `settled` promise cannot travel). */
function deliveryJson(webhook: WebhookDelivery | null): unknown {
  if (webhook === null) return null;
  return { delivered: webhook.delivered, retrying: webhook.retrying, attempts: webhook.attempts };
}

async function chargeAction(controls: Sandbox, reference: string, action: string): Promise<Response> {
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

function setWebhook(ctx: ControlContext, target: JsonObject): { url: string } | null {
  const { url } = target;
  ctx.sandbox.setWebhook(
    url === null || url === undefined ? undefined : (target as unknown as WebhookTarget),
  );
  const now = ctx.webhookUrl();
  return now === null ? null : { url: now };
}

/**
 * Answers a `/_sandbox/` route by calling the public method a test would call, so driving the
 * sandbox over HTTP and from code cannot drift apart. `path` is relative to the base path;
 * `pageBase` is the absolute URL QR pages live under.
 * @internal
 */
export async function control(
  ctx: ControlContext,
  request: Request,
  path: string,
  pageBase: string,
): Promise<Response> {
  const { sandbox } = ctx;
  const post = request.method === 'POST';
  const json = async (): Promise<JsonObject> =>
    parseJsonObject(await readBody(request), request.headers.get('content-type'));
  const clock = (): unknown => ({ clock: ctx.clock, now: sandbox.now().toISOString() });
  try {
    if (path.startsWith(QR_PAGE_PREFIX)) {
      return await qrRoute(sandbox, ctx.state, request, path.slice(QR_PAGE_PREFIX.length), pageBase);
    }
    if (path === '/_sandbox/state' && !post) {
      const { charges, refunds, debits, deliveries, requests } = sandbox;
      return toResponse(
        success({ webhookUrl: ctx.webhookUrl(), charges, refunds, debits, deliveries, requests }),
      );
    }
    if (path === '/_sandbox/reset' && post) {
      sandbox.reset();
      return toResponse(success(null, 'Sandbox reset'));
    }
    if (path === '/_sandbox/seed' && post) {
      const result = sandbox.seed((await readSeed(request)) as SandboxSeedCharge[]);
      return toResponse(success(result, `Seeded ${result.seeded} charges`));
    }
    if (path === '/_sandbox/webhook' && post) {
      const target = setWebhook(ctx, await json());
      return toResponse(success(target, target === null ? 'Webhooks off' : `Webhooks go to ${target.url}`));
    }
    if (path === '/_sandbox/deliveries' && !post) return toResponse(success(sandbox.deliveries));
    const replay = /^\/_sandbox\/deliveries\/([^/]+)\/replay$/.exec(path)?.[1];
    if (replay !== undefined && post) {
      const webhook = await sandbox.replay(decodeSegment(replay));
      return toResponse(success(deliveryJson(webhook), 'Delivery replayed'));
    }
    if (path === '/_sandbox/clock' && !post) return toResponse(success(clock()));
    if (path === '/_sandbox/clock' && post) {
      const { advance } = await json();
      sandbox.advance(advance as number);
      return toResponse(success(clock(), `Clock advanced to ${sandbox.now().toISOString()}`));
    }
    const match = /^\/_sandbox\/charges\/([^/]+)\/(authorize|decline|expire|redeliver)$/.exec(path);
    if (match?.[1] !== undefined && match[2] !== undefined && post) {
      return await chargeAction(sandbox, decodeSegment(match[1]), match[2]);
    }
    throw new SandboxError(404, `No sandbox control at ${request.method} ${path}.`);
  } catch (error) {
    if (error instanceof SandboxError) return toResponse(failure(error.status, error.message));
    if (isValidationError(error)) return toResponse(failure(400, error.message));
    throw error;
  }
}
