/**
 * A complete OpenTelemetry set-up for a Node server that uses `@wallet/node`: a tracer provider,
 * a meter provider, the async context manager that lets spans nest across `await`, and the
 * `instrumentWallet` bridge. Load it once at start-up, before handling requests.
 *
 * It exports to the console by default. In production, pass the exporters of your backend
 * (for example `new BatchSpanProcessor(new OTLPTraceExporter())` from
 * `@opentelemetry/exporter-trace-otlp-http`), or, if you already run `@opentelemetry/sdk-node`,
 * keep your set-up and call only `instrumentWallet` with its tracer and meter.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  ConsoleMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type IMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

import { instrumentWallet } from './instrument-wallet.js';

/** Where spans and metrics go. */
export interface TelemetryOptions {
  /** @default a BatchSpanProcessor writing to the console */
  spanProcessor?: SpanProcessor;
  /** @default a reader exporting to the console every 60 s */
  metricReader?: IMetricReader;
}

/** Starts tracing and metrics, globally, with the Wallet bridge subscribed. */
export function startTelemetry(options: TelemetryOptions = {}) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [options.spanProcessor ?? new BatchSpanProcessor(new ConsoleSpanExporter())],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  const meterProvider = new MeterProvider({
    readers: [
      options.metricReader ??
        new PeriodicExportingMetricReader({
          exporter: new ConsoleMetricExporter(),
          exportIntervalMillis: 60_000,
        }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  const unsubscribe = instrumentWallet({
    tracer: trace.getTracer('@wallet/node'),
    meter: metrics.getMeter('@wallet/node'),
  });

  return {
    tracerProvider,
    meterProvider,
    /** Flushes what is buffered and stops everything this started. */
    async shutdown(): Promise<void> {
      unsubscribe();
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}
