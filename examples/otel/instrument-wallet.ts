/**
 * Turns the SDK's `wallet:request` diagnostics channel into OpenTelemetry: one CLIENT span per API
 * call (retries included), named by method and endpoint template, and a counter of automatic
 * retries. Copy this file into your app; `telemetry.ts` beside it shows the SDK set-up around it.
 *
 * The span's parent is whatever span is active where you call the SDK, so a Wallet call made while
 * handling a checkout request nests under that request's span.
 */
import diagnostics from 'node:diagnostics_channel';

import { SpanKind, SpanStatusCode, type Meter, type Span, type Tracer } from '@opentelemetry/api';
import type { RequestRetryMessage, RequestTraceMessage } from '@wallet/node';

/** What `instrumentWallet` records with. */
export interface WalletInstrumentation {
  tracer: Tracer;
  meter: Meter;
}

/** Subscribes to the SDK's channels; returns the function that unsubscribes. */
export function instrumentWallet({ tracer, meter }: WalletInstrumentation): () => void {
  const spans = new WeakMap<RequestTraceMessage, Span>();
  const retries = meter.createCounter('wallet.request.retries', {
    description: 'Automatic retries of Wallet API calls, by endpoint and reason',
    unit: '{retry}',
  });

  const tracing = diagnostics.tracingChannel<object, RequestTraceMessage>('wallet:request');
  const handlers = {
    start(call: RequestTraceMessage) {
      const span = tracer.startSpan(`${call.method} ${call.endpoint}`, {
        kind: SpanKind.CLIENT,
        attributes: { 'http.request.method': call.method, 'url.template': call.endpoint },
      });
      spans.set(call, span);
    },
    end() {},
    asyncStart() {},
    error(call: RequestTraceMessage) {
      const span = spans.get(call);
      if (!span || !call.error) return;
      span.recordException(call.error);
      span.setAttribute('error.type', call.error.name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: call.error.code });
    },
    asyncEnd(call: RequestTraceMessage) {
      const span = spans.get(call);
      if (!span) return;
      spans.delete(call);
      span.setAttributes({
        'wallet.attempts': call.attempts,
        'wallet.outcome': call.outcomeUnknown ? 'unknown' : call.error ? 'error' : 'success',
        ...(call.attempts > 1 ? { 'http.request.resend_count': call.attempts - 1 } : {}),
        ...(call.status === undefined ? {} : { 'http.response.status_code': call.status }),
        // Not a secret: it is what you quote to support, and retrying with it is always safe.
        ...(call.idempotencyKey === undefined ? {} : { 'wallet.idempotency_key': call.idempotencyKey }),
      });
      span.end();
    },
  };

  const onRetry = (message: unknown): void => {
    const retry = message as RequestRetryMessage;
    const attributes = {
      'http.request.method': retry.request.method,
      'url.template': retry.request.endpoint,
      'wallet.retry.reason': retry.reason,
      ...(retry.status === undefined ? {} : { 'http.response.status_code': retry.status }),
    };
    retries.add(1, attributes);
    spans.get(retry.request)?.addEvent('retry', {
      ...attributes,
      'wallet.retry.attempt': retry.attempt,
      'wallet.retry.delay_ms': retry.delay,
    });
  };

  tracing.subscribe(handlers);
  diagnostics.subscribe('wallet:request:retry', onRetry);
  return () => {
    tracing.unsubscribe(handlers);
    diagnostics.unsubscribe('wallet:request:retry', onRetry);
  };
}
