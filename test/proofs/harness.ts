/**
 * The Node side of the proofs: a merchant's project that installed the packed tarball, a
 * sandbox on loopback for the runtime to call, a delivery signed here, and the checks every runtime
 * must pass on the report it sends back.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect } from 'vitest';

import { createSandbox, signWebhook, type Sandbox } from '@wallet/node/testing';

import { freshProject } from './pack.mjs';
import type { ScenarioInput, ScenarioReport } from './scenario/report.js';

export const TEST_KEY = 'sk_test_runtime_4eC39HqLyjWDarjt';
const WEBHOOK_SECRET = 'whsec_runtime_test';
const SCENARIO_FILES = [
  'report.ts',
  'flow.ts',
  'webhook-checks.ts',
  'scenario.ts',
  'worker.ts',
  'webhook-worker.ts',
];

/**
 * A fresh merchant project with the packed tarball installed (see pack.mjs), the scenario's files
 * copied into it beside `files`, and `dependencies` from the npm cache the proof install filled.
 */
export async function merchantProject(
  files: Record<string, string> = {},
  dependencies: Record<string, string> = {},
  name = 'merchant-app',
): Promise<{ dir: string; remove: () => void }> {
  const scenario = Object.fromEntries(
    SCENARIO_FILES.map((file) => [
      file,
      readFileSync(new URL(`./scenario/${file}`, import.meta.url), 'utf8'),
    ]),
  );
  return freshProject({ name, files: { ...scenario, ...files }, dependencies });
}

/** The sandbox on loopback and the input for one run. */
export async function servedSandbox(): Promise<{
  sandbox: Sandbox;
  input: ScenarioInput;
  close: () => Promise<void>;
}> {
  const sandbox = createSandbox();
  const { url } = await sandbox.listen();
  const reference = `order_rt_${Date.now().toString(36)}`;
  const delivery = signWebhook(
    { event: 'charge.success', data: { reference, amount: 500_000, customer: { handle: '@ada' } } },
    WEBHOOK_SECRET,
  );
  return {
    sandbox,
    input: { baseUrl: url, apiKey: TEST_KEY, reference, webhook: { ...delivery, secret: WEBHOOK_SECRET } },
    close: () => sandbox.close(),
  };
}

/**
 * Runs a runtime's CLI without blocking this process's event loop (the sandbox it calls lives
 * here), and returns the report it printed as its last stdout line.
 */
export function runCli(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<ScenarioReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? tmpdir(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        reject(new Error(`${command} exited ${code ?? signal}:\n${stderr}\n${stdout}`));
        return;
      }
      resolve(JSON.parse(last) as ScenarioReport);
    });
  });
}

/** The whole flow, as the runtime saw it and as the sandbox recorded it. */
export function expectMerchantFlow(report: ScenarioReport, sandbox: Sandbox, input: ScenarioInput): void {
  expect(report.flow, JSON.stringify(report.flow)).toMatchObject({ ok: true });
  if (!report.flow.ok) return;
  const flow = report.flow.value;
  expect(flow.dispatched).toMatchObject({ status: 'PENDING_AUTHORIZATION', attempts: 1 });
  expect(flow.verified).toEqual({ status: 'SUCCESS', amount: 500_000, fee: 10_000, netAmount: 490_000 });
  expect(flow.refund).toEqual({ status: 'PROCESSED', amount: 100_000 });
  expect(flow.overRefund).toMatchObject({
    name: 'UnprocessableEntityError',
    status: 422,
    outcomeUnknown: false,
  });

  // The service's side: one debit, one refund, and every POST under a key the SDK generated.
  expect(sandbox.debits).toHaveLength(1);
  expect(sandbox.refunds.map((r) => r.amount)).toEqual([100_000]);
  const calls = sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`);
  expect(calls).toEqual([
    'POST /v1/charges/resolve-handle 200',
    'POST /v1/charges/dispatch 200',
    `GET /v1/charges/verify/${input.reference} 200`,
    'POST /v1/refunds 200',
    'POST /v1/refunds 422',
  ]);
  const dispatch = sandbox.requests[1]!;
  expect(dispatch.idempotencyKey).toBe(flow.dispatched.idempotencyKey);
  expect(dispatch.idempotencyKey).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  expect(new Set(sandbox.requests.map((r) => r.idempotencyKey)).size).toBe(sandbox.requests.length);
}

/** Webhook verification: accepted as signed, refused once forged, by every verifier the runtime has. */
export function expectWebhooks(
  report: ScenarioReport,
  input: ScenarioInput,
  sync: 'works' | 'unavailable',
): void {
  expect(report.webhooks, JSON.stringify(report.webhooks)).toMatchObject({ ok: true });
  if (!report.webhooks.ok) return;
  const hooks = report.webhooks.value;
  const event = {
    event: 'charge.success',
    data: { reference: input.reference, amount: 500_000, customer: { handle: '@ada' } },
  };
  expect(hooks.async).toEqual({ ok: true, value: event });
  expect(hooks.handler).toEqual({ status: 200, body: '{"received":true}', events: [event] });
  expect(hooks.forgedAsync).toMatchObject({
    ok: false,
    error: { name: 'WebhookVerificationError', reason: 'signature_mismatch' },
  });
  expect(hooks.forgedHandlerStatus).toBe(400);
  expect(hooks.refusals).toEqual(['signature_mismatch']);
  if (sync === 'works') expect(hooks.sync).toEqual({ ok: true, value: event });
  else expect(hooks.sync).toMatchObject({ ok: false, error: { code: 'node_crypto_unavailable' } });
}
