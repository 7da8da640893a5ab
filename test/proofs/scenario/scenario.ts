/**
 * Both parts of what a merchant's backend does, for a runtime to run and print. Each part is
 * imported when it runs, so a part whose entry cannot load on a runtime is reported as that
 * part's failure, not as a dead runtime.
 */
import { outcome, type ScenarioInput, type ScenarioReport } from './report.js';

/** Runs both parts; never throws, so the runtime always prints a report. */
export async function runScenario(runtime: string, input: ScenarioInput): Promise<ScenarioReport> {
  return {
    runtime,
    flow: await outcome(async () => (await import('./flow.js')).merchantFlow(input)),
    webhooks: await outcome(async () => (await import('./webhook-checks.js')).webhookChecks(input)),
  };
}
