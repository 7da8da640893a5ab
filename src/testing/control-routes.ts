/**
 * What the `/_sandbox/` routes do to a sandbox: each calls the public method a test would call,
 * so driving the sandbox over HTTP (the bin, another language) and from code cannot drift apart.
 */
import type { Sandbox } from './api.js';
import type { ControlRoutes } from './endpoints/controls.js';
import type { SandboxClock } from './state/clock.js';
import type { SandboxSeedCharge } from './state/seed.js';
import type { WebhookTarget } from './webhooks/sender.js';

/** The control routes over `sandbox`; `webhookUrl` says where its webhooks go now. @internal */
export function controlRoutes(
  sandbox: Sandbox,
  webhookUrl: () => string | null,
  clock: () => SandboxClock,
): ControlRoutes {
  return {
    authorize: (reference) => sandbox.authorize(reference),
    decline: (reference) => sandbox.decline(reference),
    expire: (reference) => sandbox.expire(reference),
    redeliver: (reference) => sandbox.redeliver(reference),
    replay: (id) => sandbox.replay(id),
    deliveries: () => sandbox.deliveries,
    reset: () => sandbox.reset(),
    charge: (reference) => sandbox.charge(reference),
    seed: (rows) => sandbox.seed(rows as readonly SandboxSeedCharge[]),
    setWebhook: (target) => {
      const { url } = target as { url?: unknown };
      sandbox.setWebhook(url === null || url === undefined ? undefined : (target as WebhookTarget));
      const now = webhookUrl();
      return now === null ? null : { url: now };
    },
    clock: () => ({ clock: clock(), now: sandbox.now().toISOString() }),
    advance: (ms) => ({ clock: clock(), now: sandbox.advance(ms as number).toISOString() }),
    state: () => ({
      webhookUrl: webhookUrl(),
      charges: sandbox.charges,
      refunds: sandbox.refunds,
      debits: sandbox.debits,
      deliveries: sandbox.deliveries,
      requests: sandbox.requests,
    }),
  };
}
