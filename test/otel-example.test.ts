import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Wallet } from '@wallet/node';
import { createSandbox, FetchDispatcher } from '@wallet/node/testing';
import { startTelemetry } from '../examples/otel/telemetry.js';
import { resolveAndDispatch } from './helpers/charge-flow.js';
import { TEST_KEY } from './helpers/mock-service.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** The sandbox, except that the first attempt of the first dispatch answers 503: one retry to see. */
function flakySandbox() {
  const sandbox = createSandbox();
  let failedOnce = false;
  const dispatcher = new FetchDispatcher(async (request) => {
    if (!failedOnce && request.url.endsWith('/v1/charges/dispatch')) {
      failedOnce = true;
      return Response.json(
        { status: 'error', message: 'Busy' },
        { status: 503, headers: { 'retry-after': '0' } },
      );
    }
    return sandbox.fetch(request);
  });
  return { sandbox, wallet: new Wallet({ apiKey: TEST_KEY, baseUrl: sandbox.baseUrl, dispatcher }) };
}

const shown = (span: ReadableSpan) => ({
  name: span.name,
  attributes: span.attributes,
  events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
  status: span.status,
});

describe('examples/otel: the documented OpenTelemetry set-up', () => {
  it('turns a checkout against the sandbox into one span per call under the caller’s span, and counts retries', async () => {
    const spans = new InMemorySpanExporter();
    const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const telemetry = startTelemetry({
      spanProcessor: new SimpleSpanProcessor(spans),
      metricReader: new PeriodicExportingMetricReader({
        exporter: metricExporter,
        exportIntervalMillis: 60_000,
      }),
    });
    stops.push(() => telemetry.shutdown());
    const { sandbox, wallet } = flakySandbox();

    const tracer = trace.getTracer('merchant-app');
    const checkoutId = await tracer.startActiveSpan('POST /checkout', async (checkout) => {
      await resolveAndDispatch(wallet, 'order_otel');
      setTimeout(() => void sandbox.authorize('order_otel'), 150);
      await wallet.charges.waitForOutcome('order_otel', { pollInterval: 100 });
      await wallet.refunds.create({
        reference: 'order_otel',
        amount: 100_000,
        reason: 'Ada changed her mind',
      });
      await wallet.charges.verify('order_missing').catch(() => undefined);
      checkout.end();
      return checkout.spanContext().spanId;
    });
    await telemetry.meterProvider.forceFlush();

    const finished = spans.getFinishedSpans().filter((s) => s.name !== 'POST /checkout');
    const names = finished.map((s) => s.name);
    expect(names.slice(0, 2)).toEqual(['POST /v1/charges/resolve-handle', 'POST /v1/charges/dispatch']);
    expect(names.filter((n) => n === 'GET /v1/charges/verify/{reference}').length).toBeGreaterThanOrEqual(2);
    expect(names.slice(-2)).toEqual(['POST /v1/refunds', 'GET /v1/charges/verify/{reference}']);
    for (const span of finished) expect(span.parentSpanContext?.spanId).toBe(checkoutId);

    const dispatch = finished[1]!;
    expect(dispatch.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.template': '/v1/charges/dispatch',
      'wallet.attempts': 2,
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
      'wallet.outcome': 'success',
    });
    expect(dispatch.attributes['wallet.idempotency_key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(dispatch.events.map((e) => [e.name, e.attributes?.['http.response.status_code']])).toEqual([
      ['retry', 503],
    ]);

    const missing = finished.at(-1)!;
    expect(missing.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(missing.attributes).toMatchObject({
      'error.type': 'NotFoundError',
      'http.response.status_code': 404,
      'wallet.outcome': 'error',
    });

    const [retries] = metricExporter
      .getMetrics()
      .flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics))
      .filter((m) => m.descriptor.name === 'wallet.request.retries');
    expect(retries?.dataPointType).toBe(DataPointType.SUM);
    expect(retries?.dataPoints.map((p) => [p.attributes, p.value])).toEqual([
      [
        {
          'http.request.method': 'POST',
          'url.template': '/v1/charges/dispatch',
          'wallet.retry.reason': 'status',
          'http.response.status_code': 503,
        },
        1,
      ],
    ]);

    // What leaves the process through the exporter: no key, customer, reference or free text.
    const exported = JSON.stringify(finished.map(shown));
    for (const secret of [
      TEST_KEY,
      '@ada',
      'Ada',
      '+234',
      'order_otel',
      'order_missing',
      'changed her mind',
    ]) {
      expect(exported).not.toContain(secret);
    }
    await wallet.close();
  });

  it('is the code docs/observability.md shows, and the doc’s quick log subscriber runs as written', async () => {
    const doc = readFileSync(new URL('../docs/observability.md', import.meta.url), 'utf8');
    const bridge = readFileSync(new URL('../examples/otel/instrument-wallet.ts', import.meta.url), 'utf8');
    expect(doc).toContain(`\`\`\`ts\n${bridge}\`\`\``);

    const quick = /## A quick look[^]*?```js\n([^]*?)```/.exec(doc)![1]!;
    const scratch = new URL('./observability-quick-look.tmp.mjs', import.meta.url);
    writeFileSync(scratch, quick);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    // Watch what the snippet subscribes, to take it all back afterwards.
    const diagnostics = (await import('node:diagnostics_channel')).default;
    const tracingProto = Object.getPrototypeOf(diagnostics.tracingChannel('wallet:request')) as {
      subscribe(handlers: object): void;
    };
    const tracingSubscribe = vi.spyOn(tracingProto, 'subscribe');
    const plainSubscribe = vi.spyOn(diagnostics, 'subscribe');
    stops.push(async () => {
      log.mockRestore();
      rmSync(scratch, { force: true });
      tracingSubscribe.mock.calls.forEach(([handlers], i) =>
        (tracingSubscribe.mock.contexts[i] as { unsubscribe(h: object): void }).unsubscribe(handlers),
      );
      for (const [name, fn] of plainSubscribe.mock.calls) diagnostics.unsubscribe(name, fn);
      tracingSubscribe.mockRestore();
      plainSubscribe.mockRestore();
    });
    await import(/* @vite-ignore */ `${scratch.href}?t=${Date.now()}`);
    expect(tracingSubscribe).toHaveBeenCalledTimes(1);
    expect(plainSubscribe).toHaveBeenCalledTimes(1);
    const { wallet } = flakySandbox();
    await resolveAndDispatch(wallet, 'o_log');
    await wallet.charges.verify('o_missing').catch(() => undefined);
    expect(log.mock.calls).toEqual([
      ['POST', '/v1/charges/resolve-handle', 200, '1 attempt(s)', 'ok'],
      ['retrying', '/v1/charges/dispatch', 'in', 0, 'ms because of', 'status', 503],
      ['POST', '/v1/charges/dispatch', 200, '2 attempt(s)', 'ok'],
      ['GET', '/v1/charges/verify/{reference}', 404, '1 attempt(s)', 'not_found'],
    ]);
  });
});
