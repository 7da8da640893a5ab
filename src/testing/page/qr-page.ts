/** The customer's side of a QR charge: a QR code of its own address and Authorize / Decline forms, no script. */
import { formatNaira } from '../../money.js';
import type { SandboxCharge } from '../state/records.js';

/** The path of a QR page under the sandbox's base path. @internal */
export const QR_PAGE_PREFIX = '/_sandbox/qr/';

// Never cached nor sniffed; the page loads nothing from anywhere, and its forms post only to the sandbox.
const FRESH = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'",
  ...FRESH,
} as const;

/** The QR code of `text` as SVG: error correction M and a 4-module quiet zone, readable from a screen. */
async function qrSvg(text: string): Promise<string> {
  const { renderSVG } = await import('uqr');
  const svg = renderSVG(text, { ecc: 'M', border: 4, pixelSize: 8 });
  // A natural size, so an `<img>` without CSS shows it at 8 px per module rather than 300 x 150.
  const side = /viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1];
  return side === undefined ? svg : svg.replace('<svg ', `<svg width="${side}" height="${side}" `);
}

/** The SVG answer, for an `<img src=qrCodeUrl>` on a merchant's checkout page. @internal */
export async function svgResponse(pageUrl: string): Promise<Response> {
  return new Response(await qrSvg(pageUrl), { headers: { 'content-type': 'image/svg+xml', ...FRESH } });
}

/** True when the client asked for an image (an `<img>`), not a page: a `qrCodeUrl` works both ways. @internal */
export function wantsImage(accept: string | null): boolean {
  return accept !== null && !/text\/html/i.test(accept) && /image\/(svg\+xml|\*)/i.test(accept);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// A QR page's charge was dispatched, so it is never RESOLVED.
function statusText({ status, expiresAt, paidAt }: SandboxCharge): string {
  if (status === 'SUCCESS') return `Paid at ${paidAt ?? ''}.`;
  if (status === 'FAILED') return 'Declined by the customer.';
  if (status === 'EXPIRED') return 'The prompt expired.';
  return `Waiting for the customer. Expires at ${expiresAt ?? 'never'}.`;
}

/** The customer page of `charge` at `pageUrl` (what its QR code holds), with a refusal `notice`. @internal */
export async function pageResponse(
  charge: SandboxCharge,
  pageUrl: string,
  notice?: string,
  status = 200,
): Promise<Response> {
  const path = new URL(pageUrl).pathname;
  const pending = charge.status === 'PENDING_SCAN' || charge.status === 'PENDING_AUTHORIZATION';
  const svg = await qrSvg(pageUrl);
  const image = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  const buttons = pending
    ? `<form method="post" action="${escape(path)}/authorize"><button id="authorize" type="submit">Authorize</button></form>
      <form method="post" action="${escape(path)}/decline"><button id="decline" type="submit" class="secondary">Decline</button></form>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay ${escape(formatNaira(charge.amount))} · Wallet sandbox</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#111}
main{max-width:420px;margin:24px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 4px #0002}
h1{font-size:28px;margin:0 0 4px}.muted{color:#555;font-size:14px}
img{display:block;width:264px;height:264px;margin:16px auto;image-rendering:pixelated}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;font-size:14px}dt{color:#555}dd{margin:0}
.actions{display:flex;gap:12px;margin-top:16px}form{flex:1}
button{width:100%;padding:12px;font-size:16px;border:0;border-radius:8px;background:#0a7d32;color:#fff;cursor:pointer}
button.secondary{background:#b3261e}#status{font-weight:600}.notice{color:#b3261e}
</style></head>
<body><main>
<p class="muted">Wallet sandbox · customer view</p>
<h1 id="amount">${escape(formatNaira(charge.amount))}</h1>
<p id="status" data-status="${escape(charge.status)}">${escape(statusText(charge))}</p>
${notice === undefined ? '' : `<p class="notice" id="notice">${escape(notice)}</p>`}
<img id="qr" alt="QR code of this page" src="${image}">
<dl>
<dt>Reference</dt><dd id="reference">${escape(charge.reference)}</dd>
<dt>Customer</dt><dd>${escape(charge.customer.name)} (${escape(charge.customer.handle)})</dd>
<dt>Bank</dt><dd>${escape(charge.bankId ?? '')}</dd>
${charge.description === null ? '' : `<dt>For</dt><dd>${escape(charge.description)}</dd>`}
</dl>
<div class="actions">${buttons}</div>
</main></body></html>`;
  return new Response(html, { status, headers: PAGE_HEADERS });
}
