/**
 * A merchant's webhook-only Worker: it imports only `@wallet/node/webhooks`, so its bundle holds
 * neither undici nor zod and it runs where the API client is never loaded.
 */
import type { ScenarioInput } from './report.js';
import { webhookChecks } from './webhook-checks.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const input = (await request.json()) as ScenarioInput;
    return Response.json(await webhookChecks(input));
  },
};
