/**
 * The merchant's Cloudflare Worker: it takes the scenario's input as its request body and answers
 * the report. Bundled the way wrangler bundles a Worker, then run by workerd.
 */
import type { ScenarioInput } from './report.js';
import { runScenario } from './scenario.js';

export default {
  async fetch(request: Request): Promise<Response> {
    const input = (await request.json()) as ScenarioInput;
    return Response.json(await runScenario('workerd', input));
  },
};
