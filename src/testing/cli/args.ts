/** The `wallet-sandbox` command line, turned into `createSandbox()` and `listen()` options. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { isValidationError } from '../../errors/base.js';
import type { SandboxOptions } from '../api.js';
import { readSandboxOptions } from '../options.js';
import type { SandboxListenOptions } from '../transports/server.js';

/** The bin's usage text. @internal */
export const USAGE = `Usage: wallet-sandbox [options]

Serves the Wallet sandbox over HTTP and logs every request and webhook delivery. Any sk_test_
key is accepted; @ada (+2348000000001) and @tunde are ready to charge.

  --port N              port to listen on (default 0: a free port)
  --host H              address to bind (default 127.0.0.1)
  --webhook-url URL     where to deliver signed charge.success events
  --webhook-secret S    the secret deliveries are signed with (required with --webhook-url)
  --customers FILE      JSON file of more customers: [{ "handle", "phone", "name", "banks": [...] }]
  --fail-rate R         share of API requests that fail (5xx or reset), 0 to 1 (default 0)
  --latency MS          delay before each answer: MS, or MIN-MAX for a random one (default 0)
  --fault-kinds K,K     how failing requests fail: error, reset, reset-after, rate-limit (a 429
                        with Retry-After) (default error,reset,reset-after)
  --retry-after S       Retry-After of a rate-limit fault: seconds, or MIN-MAX (default 1)
  --seed N              seed of the faults and latency (default 1)
  --max-charges N       charges kept; past it the oldest finished go (default 100000)
  --clock manual        stop the sandbox's time: POST /_sandbox/clock {"advance": ms} moves it
                        (prompts expire, paid charges settle) (default real)
  --quiet               no log lines
  -h, --help            show this help

Play the customer (no key needed):
  POST /_sandbox/charges/<reference>/authorize | decline | expire | redeliver
  GET  /_sandbox/state
  GET  /_sandbox/deliveries, POST /_sandbox/deliveries/<id>/replay  (the same bytes again)
  GET  /_sandbox/clock     the time; POST {"advance": ms} moves a manual clock
Set up state and webhooks without a restart:
  POST /_sandbox/seed      many charges, a JSON array or JSON lines of { reference, amount, status }
  POST /_sandbox/webhook   { "url": "http://127.0.0.1:3000/webhooks", "secret": "whsec_..." }
and open the qrCodeUrl of a QR dispatch in a browser.`;

/** What the command line asks for, or why it cannot be served. @internal */
export type BinArgs =
  | { kind: 'help' }
  | { kind: 'error'; message: string }
  | { kind: 'serve'; sandbox: SandboxOptions; listen: SandboxListenOptions; quiet: boolean };

function number(flag: string, raw: string, integer: boolean): number | string {
  const pattern = integer ? /^\d+$/ : /^\d+(\.\d+)?$/;
  return pattern.test(raw.trim())
    ? Number(raw)
    : `${flag} must be a ${integer ? 'whole ' : ''}number (got '${raw}').`;
}

/** N or MIN-MAX in `unit` (the checker then says what range each may take). */
function numberOrRange(flag: string, unit: string, raw: string): number | [number, number] | string {
  const match = /^(\d+)(?:-(\d+))?$/.exec(raw.trim());
  if (match?.[1] === undefined) return `${flag} must be ${unit}, or MIN-MAX in ${unit} (got '${raw}').`;
  return match[2] === undefined ? Number(match[1]) : [Number(match[1]), Number(match[2])];
}

function readCustomers(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(`--customers: cannot read ${file} (${typeof code === 'string' ? code : String(error)}).`);
  }
  try {
    const value = JSON.parse(text) as unknown;
    // Either the list itself, or { "customers": [...] } for a file that holds more later.
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'customers' in value
      ? value.customers
      : value;
  } catch (error) {
    throw new Error(`--customers: ${file} is not valid JSON (${(error as Error).message}).`);
  }
}

/** Parses the bin's arguments. Never throws: a problem is `{ kind: 'error' }`. @internal */
export function parseBinArgs(argv: readonly string[]): BinArgs {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        'webhook-url': { type: 'string' },
        'webhook-secret': { type: 'string' },
        customers: { type: 'string' },
        'fail-rate': { type: 'string' },
        latency: { type: 'string' },
        seed: { type: 'string' },
        'fault-kinds': { type: 'string' },
        'retry-after': { type: 'string' },
        'max-charges': { type: 'string' },
        clock: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) return { kind: 'help' };
    const port = number('--port', values.port, true);
    if (typeof port === 'string' || port > 65_535)
      return { kind: 'error', message: `--port must be a number from 0 to 65535 (got '${values.port}').` };
    const faults: Record<string, unknown> = {};
    if (values['fail-rate'] !== undefined)
      faults.failRate = number('--fail-rate', values['fail-rate'], false);
    if (values.latency !== undefined) faults.latency = numberOrRange('--latency', 'ms', values.latency);
    if (values['fault-kinds'] !== undefined)
      faults.kinds = values['fault-kinds'].split(',').map((kind) => kind.trim());
    if (values['retry-after'] !== undefined)
      faults.retryAfter = numberOrRange('--retry-after', 'seconds', values['retry-after']);
    if (values.seed !== undefined) faults.seed = number('--seed', values.seed, true);
    const bad = Object.values(faults).find((value) => typeof value === 'string');
    if (typeof bad === 'string') return { kind: 'error', message: bad };
    const sandbox: Record<string, unknown> = {
      // Real endpoints in development are slower than a test's: give each attempt longer.
      webhookRetry: { attempts: 5, delayMs: 500, maxDelayMs: 10_000, timeoutMs: 10_000 },
    };
    if (values['webhook-url'] !== undefined) sandbox.webhookUrl = values['webhook-url'];
    if (values['webhook-secret'] !== undefined) sandbox.webhookSecret = values['webhook-secret'];
    if (values.customers !== undefined) sandbox.customers = readCustomers(values.customers);
    if (values['max-charges'] !== undefined) {
      const max = number('--max-charges', values['max-charges'], true);
      if (typeof max === 'string') return { kind: 'error', message: max };
      sandbox.maxCharges = max;
    }
    if (values.clock !== undefined) sandbox.clock = values.clock;
    if (Object.keys(faults).length > 0) sandbox.faults = faults;
    const checked = readSandboxOptions(sandbox);
    return { kind: 'serve', sandbox: checked, listen: { port, host: values.host }, quiet: values.quiet };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'error', message: isValidationError(error) ? flagNames(message) : message };
  }
}

// The option checker names options as createSandbox() knows them; say them as the flags they came from.
function flagNames(message: string): string {
  return message
    .replace('createSandbox() options', 'arguments')
    .replace(/\bwebhookUrl\b/g, '--webhook-url')
    .replace(/\bwebhookSecret\b/g, '--webhook-secret')
    .replace(/\bfaults\.failRate\b/g, '--fail-rate')
    .replace(/\bfaults\.latency\b/g, '--latency')
    .replace(/\bfaults\.seed\b/g, '--seed')
    .replace(/\bfaults\.kinds\.(\d+)/g, (_, index: string) => `--fault-kinds: kind ${Number(index) + 1}`)
    .replace(/\bfaults\.retryAfter\b/g, '--retry-after')
    .replace(/\bmaxCharges\b/g, '--max-charges')
    .replace(/\bclock\b/g, '--clock')
    .replace(/\bcustomers\.(\d+)/g, (_, index: string) => `--customers: customer ${index}`)
    .replace(/(?<!-)\bcustomers: /g, '--customers: ');
}
