/**
 * Runs forged deliveries through every way a merchant receives them: both verifiers, the Fetch
 * handler, the Node handler in process and over real HTTP; and tallies what each did with them.
 */
import { Agent, request } from 'undici';
import { PassThrough } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  WebhookVerificationError,
  createNodeWebhookHandler,
  createWebhookHandler,
  verifyWebhook,
  verifyWebhookAsync,
} from '../../src/webhooks.js';
import type { NodeWebhookHandler } from '../../src/webhooks.js';
import { type Delivery, fitsInHeaders } from './forgery.js';
import { SECRET, close, listen } from './helpers.js';

/** What one path did with the deliveries it was given. */
export interface Tally {
  /** Deliveries given to this path. */
  tried: number;
  /** Accepted: a verifier returned an event, or a handler answered 200 / ran onEvent. Must be 0. */
  accepted: number;
  /** Refused with a WebhookVerificationError (verifiers) or answered 400 (handlers). */
  refused: number;
  /** Anything else: an untyped throw, or another status. Must be 0. */
  other: number;
}

const tally = (): Tally => ({ tried: 0, accepted: 0, refused: 0, other: 0 });

/** Both verifiers. */
export async function throughVerifiers(deliveries: readonly Delivery[]): Promise<Record<string, Tally>> {
  const sync = tally();
  const asynchronous = tally();
  for (const d of deliveries) {
    for (const [t, run] of [
      [sync, () => verifyWebhook(d.body, d.signature, SECRET)],
      [asynchronous, () => verifyWebhookAsync(d.body, d.signature, SECRET)],
    ] as const) {
      t.tried++;
      try {
        await run();
        t.accepted++;
      } catch (error) {
        if (error instanceof WebhookVerificationError) t.refused++;
        else t.other++;
      }
    }
  }
  return { verifyWebhook: sync, verifyWebhookAsync: asynchronous };
}

function count(t: Tally, status: number): void {
  t.tried++;
  if (status === 200) t.accepted++;
  else if (status === 400) t.refused++;
  else t.other++;
}

/** A request a Node handler reads like one from node:http, without a socket. */
function nodeRequest(d: Delivery): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage;
  Object.assign(req, { method: 'POST', headers: { 'x-wallet-signature': d.signature } });
  (req as unknown as PassThrough).end(Buffer.from(d.body));
  return req;
}

function nodeResponse(done: (status: number) => void): ServerResponse {
  const res = { headersSent: false, statusCode: 0, setHeader: () => res, end: () => done(res.statusCode) };
  return res as unknown as ServerResponse;
}

const LATIN1_FIELD = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Both handlers: Fetch and Node in process, and Node over loopback HTTP when the header can travel. */
export async function throughHandlers(
  deliveries: readonly Delivery[],
  { http = deliveries.length }: { http?: number } = {},
): Promise<{ tallies: Record<string, Tally>; onEventRuns: number }> {
  let onEventRuns = 0;
  const options = { secret: SECRET, onEvent: () => void onEventRuns++, onError: () => undefined };
  const fetchHandler = createWebhookHandler(options);
  const nodeHandler: NodeWebhookHandler = createNodeWebhookHandler(options);
  const fetchTally = tally();
  const nodeTally = tally();
  const httpTally = tally();
  for (const d of deliveries) {
    if (fitsInHeaders(d.signature)) {
      const headers = new Headers();
      for (const v of Array.isArray(d.signature)
        ? d.signature
        : d.signature === undefined
          ? []
          : [d.signature]) {
        headers.append('x-wallet-signature', v);
      }
      const response = await fetchHandler(
        new Request('https://merchant.example/webhooks', { method: 'POST', headers, body: d.body }),
      );
      count(fetchTally, response.status);
    }
    count(
      nodeTally,
      await new Promise<number>((resolve) => void nodeHandler(nodeRequest(d), nodeResponse(resolve))),
    );
  }
  const { url, server } = await listen((req, res) => void nodeHandler(req, res));
  const dispatcher = new Agent({ connections: 16 });
  try {
    const sendable = deliveries
      .filter((d) => [d.signature ?? []].flat().every((v) => LATIN1_FIELD.test(v)))
      .slice(0, http);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < sendable.length) {
        const d = sendable[next++]!;
        const response = await request(url, {
          method: 'POST',
          dispatcher,
          body: Buffer.from(d.body),
          headers: d.signature === undefined ? {} : { 'x-wallet-signature': d.signature },
        });
        await response.body.dump();
        count(httpTally, response.statusCode);
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
  } finally {
    await dispatcher.close();
    await close(server);
  }
  return {
    tallies: { 'Fetch handler': fetchTally, 'Node handler': nodeTally, 'Node handler over HTTP': httpTally },
    onEventRuns,
  };
}
