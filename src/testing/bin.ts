#!/usr/bin/env node
/**
 * `wallet-sandbox`: the sandbox on loopback, for local development and for merchants whose backend
 * is not written in JavaScript. Prints one line with its URL, then serves until SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';

import { createSandbox } from './sandbox.js';

const USAGE = `Usage: wallet-sandbox [--port N] [--host H] [--webhook-url URL --webhook-secret SECRET]

Serves the Wallet sandbox over HTTP. Any sk_test_ key is accepted; the customer @ada
(+2348000000001) is ready to charge. Play the customer with
  POST /_sandbox/charges/<reference>/authorize | decline | expire
and read what happened with GET /_sandbox/state.

  --port N              port to listen on (default 0: a free port)
  --host H              address to bind (default 127.0.0.1)
  --webhook-url URL     where to deliver signed charge.success events
  --webhook-secret S    the secret deliveries are signed with (required with --webhook-url)
  -h, --help            show this help`;

function fail(message: string): never {
  process.stderr.write(`wallet-sandbox: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        'webhook-url': { type: 'string' },
        'webhook-secret': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535)
    fail(`--port must be a number from 0 to 65535 (got '${values.port}').`);
  const webhookUrl = values['webhook-url'];
  const webhookSecret = values['webhook-secret'];
  if ((webhookUrl === undefined) !== (webhookSecret === undefined)) {
    fail('--webhook-url and --webhook-secret go together.');
  }
  let sandbox;
  try {
    sandbox = createSandbox({
      ...(webhookUrl === undefined ? {} : { webhookUrl }),
      ...(webhookSecret === undefined ? {} : { webhookSecret }),
      // Real endpoints in development can be slower than a test's; give each attempt longer.
      webhookRetry: { attempts: 5, delayMs: 500, timeoutMs: 10_000 },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const server = await sandbox.listen({ port, host: values.host });
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`wallet-sandbox: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Printed only once the signals are handled: whoever waits for this line may stop us at once.
  process.stdout.write(`wallet-sandbox listening on ${server.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`wallet-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
