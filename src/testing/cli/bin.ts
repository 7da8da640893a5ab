#!/usr/bin/env node
/** `wallet-sandbox`: the sandbox on loopback as a development server, logging until SIGINT or SIGTERM. */
import { USAGE, parseBinArgs } from './args.js';
import type { SandboxLogger } from '../endpoints/log.js';
import { createSandbox } from '../sandbox.js';

function fail(message: string): never {
  process.stderr.write(`wallet-sandbox: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

// One stream, in order: a developer reads requests and the deliveries they caused together.
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const terminal: SandboxLogger = { info: print, warn: print };

async function main(): Promise<void> {
  const args = parseBinArgs(process.argv.slice(2));
  if (args.kind === 'help') return void process.stdout.write(`${USAGE}\n`);
  if (args.kind === 'error') fail(args.message);
  const sandbox = createSandbox({ ...args.sandbox, ...(args.quiet ? {} : { logger: terminal }) });
  const server = await sandbox.listen(args.listen);
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
  const { webhookUrl, faults, customers } = args.sandbox;
  const lines = [
    `wallet-sandbox listening on ${server.url}`,
    webhookUrl === undefined
      ? `  webhooks   none yet; to send them, with no restart:\n             curl -X POST ${server.url}/_sandbox/webhook -H 'content-type: application/json' -d '{"url":"http://127.0.0.1:3000/webhooks/wallet","secret":"whsec_demo"}'`
      : `  webhooks   -> ${webhookUrl}`,
    `  customers  ${sandbox.customers.map((c) => c.handle).join(', ')}${customers ? ' (with --customers)' : ''}`,
  ];
  if (faults !== undefined) {
    const latency = [faults.latency ?? 0].flat().join('-');
    const retry = faults.kinds?.includes('rate-limit')
      ? ` (Retry-After ${[faults.retryAfter ?? 1].flat().join('-')} s)`
      : '';
    const kinds = faults.kinds === undefined ? '' : `, ${faults.kinds.join(' ')}${retry}`;
    lines.push(
      `  faults     fail rate ${faults.failRate ?? 0}${kinds}, latency ${latency} ms, seed ${faults.seed ?? 1}`,
    );
  }
  if (args.sandbox.clock === 'manual') {
    lines.push(
      `  clock      manual, stopped at ${sandbox.now().toISOString()}; to move it:\n             curl -X POST ${server.url}/_sandbox/clock -H 'content-type: application/json' -d '{"advance":600000}'`,
    );
  }
  lines.push(`  customer   curl -X POST ${server.url}/_sandbox/charges/<reference>/authorize`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`wallet-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
