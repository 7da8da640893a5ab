/**
 * The routes of a QR charge's customer page (`/_sandbox/qr/<id>`): the page, its QR image, and the
 * Authorize / Decline forms it posts, acting as the customer would through the test controls.
 */
import { pageResponse, svgResponse, wantsImage } from '../page/qr-page.js';
import { SandboxError } from '../state/errors.js';
import type { SandboxCharge } from '../state/records.js';
import type { SandboxState } from '../state/store.js';

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
