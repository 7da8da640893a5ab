/**
 * The webhook forgery proof, at a given size: the fast form runs in npm test, the full form (10,000
 * deliveries) in npm run test:stress. Prints its figures so docs/reliability.md can quote a run.
 */
import { describe, expect, test, vi } from 'vitest';

import { createNodeWebhookHandler, createWebhookHandler } from '../../src/webhooks.js';
import { fakeClock, track } from '../helpers/fake-clock.js';
import { dripStream, listenForOne, rawPost } from './drip.js';
import { forgeries, isGenuine } from './forgery.js';
import { throughHandlers, throughVerifiers, type Tally } from './forgery-run.js';
import { BODY, SECRET, SIGNATURE, close } from './helpers.js';

const report = (title: string, tallies: Record<string, Tally>): void => {
  const lines = Object.entries(tallies).map(
    ([path, t]) =>
      `  ${path.padEnd(24)} tried ${t.tried}  accepted ${t.accepted}  refused ${t.refused}  other ${t.other}`,
  );
  console.log(`${title}\n${lines.join('\n')}`);
};

/** Defines the forgery tests for `count` deliveries from `seed`, `http` of them over loopback HTTP. */
export function forgerySuite({ count, http, seed }: { count: number; http: number; seed: number }): void {
  const deliveries = forgeries(seed, count);

  describe(`webhook forgery: ${count} fuzzed deliveries from one genuine delivery (seed ${seed})`, () => {
    test('the oracle is sound: it calls the genuine delivery genuine, and every fuzzed one forged', async () => {
      const genuine = { kind: 'genuine', body: Buffer.from(BODY), signature: SIGNATURE };
      expect(isGenuine(genuine)).toBe(true);
      expect(isGenuine({ ...genuine, signature: ` ${SIGNATURE.toUpperCase()}\t` })).toBe(true);
      expect(deliveries.some(isGenuine)).toBe(false);
      // Every kind of mutation was drawn.
      expect(new Set(deliveries.map((d) => d.kind)).size).toBe(16);
      // Control: the same paths accept the genuine delivery, so a 0 below means something.
      const { tallies, onEventRuns } = await throughHandlers([genuine], { http: 1 });
      for (const t of Object.values(tallies)) expect(t).toMatchObject({ tried: 1, accepted: 1 });
      expect(onEventRuns).toBe(3); // Fetch, Node in process, Node over HTTP
      const verifiers = await throughVerifiers([genuine]);
      for (const t of Object.values(verifiers)) expect(t.accepted).toBe(1);
    });

    test('verifyWebhook and verifyWebhookAsync accept none, and refuse each with a WebhookVerificationError', async () => {
      const tallies = await throughVerifiers(deliveries);
      report('verifiers', tallies);
      for (const t of Object.values(tallies))
        expect(t).toEqual({ tried: count, accepted: 0, refused: count, other: 0 });
    });

    test('both handlers answer 400 to each, and never run onEvent', async () => {
      const { tallies, onEventRuns } = await throughHandlers(deliveries, { http });
      report('handlers', tallies);
      expect(onEventRuns).toBe(0);
      for (const t of Object.values(tallies)) {
        expect(t.tried).toBeGreaterThan(0);
        expect(t).toEqual({ tried: t.tried, accepted: 0, refused: t.tried, other: 0 });
      }
      expect(tallies['Node handler']!.tried).toBe(count);
    }, 300_000);

    test('under a slow drip, both handlers answer 408 at their deadline (fake clock), onEvent never runs', async () => {
      fakeClock();
      let events = 0;
      const options = {
        secret: SECRET,
        onEvent: () => void events++,
        onError: () => undefined,
        bodyTimeout: 250,
      };
      const { url, server, request } = await listenForOne(createNodeWebhookHandler(options));
      try {
        const post = rawPost(url, 50_000);
        const req = await request;
        for (let t = 0; t < 240; t += 10) {
          await post.byte(req); // read by the handler before the clock moves on
          await vi.advanceTimersByTimeAsync(10);
        }
        await vi.advanceTimersByTimeAsync(10);
        vi.useRealTimers();
        expect((await post.answer).status).toBe(408);
      } finally {
        vi.useRealTimers();
        await close(server);
      }
      fakeClock();
      try {
        const after = track(
          createWebhookHandler(options)(
            new Request('https://merchant.example/', {
              method: 'POST',
              body: dripStream(10).stream,
              duplex: 'half',
            }),
          ),
        );
        expect((await after(249)).settled).toBe(false);
        expect((await after(1)).value?.status).toBe(408);
      } finally {
        vi.useRealTimers();
      }
      expect(events).toBe(0);
    });
  });
}
