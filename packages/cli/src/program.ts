/** The command tree (commander): help everywhere, "did you mean", every usage mistake exit 2. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { Command, InvalidArgumentError, Option } from 'commander';

import { refundCommand, verifyCommand, waitCommand } from './commands/calls.js';
import { doctorCommand } from './commands/doctor.js';
import { reconcileCommand } from './commands/reconcile.js';
import { settlementsCommand } from './commands/settlements.js';
import { triggerCommand } from './commands/webhooks.js';
import { withoutKeys, type Output } from './output.js';
import { ENCODINGS } from './reconcile/csv.js';
import { webhookVerifyCommand } from './webhooks/diagnose.js';

/** What a command's action resolves to: the exit code. */
export type Run = (out: Output) => Promise<number>;

function whole(min: number, max: number) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
    return Number(raw);
  };
}

/** The options of every command that verifies a ledger (reconcile, settlements): one definition. */
function ledgerOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--amount-unit <unit>', 'unit of the amount column')
        .choices(['kobo', 'naira'])
        .default('kobo'),
    )
    .option('--concurrency <n>', 'verifies in flight at once', whole(1, 64), 8)
    .option('--retries <n>', 'retries of a row after a lost connection, 429 or 5xx', whole(0, 10), 2)
    .option('--reference-column <name>', 'column of the reference', 'reference')
    .option('--amount-column <name>', 'column of the amount', 'amount')
    .option('--status-column <name>', 'column of the status (paid, pending, failed)', 'status')
    .option(
      '--max-wait <seconds>',
      'the longest Retry-After to wait out, pausing every worker, before a row is an error',
      whole(0, 86_400),
      300,
    )
    .addOption(
      new Option(
        '--encoding <encoding>',
        "the ledger's encoding when it is not UTF-8 (or UTF-16 with a BOM)",
      ).choices([...ENCODINGS]),
    )
    .option('--quiet', 'no progress lines (the summary still prints)', false);
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The path of `@wallet/node`'s `wallet-sandbox` bin, as installed beside this package. */
export function sandboxBin(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@wallet/node/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: Record<string, string> };
  return join(dirname(manifestPath), manifest.bin?.['wallet-sandbox'] ?? './dist/wallet-sandbox.js');
}

/** `wallet sandbox`: the SDK's own `wallet-sandbox` bin with the same flags, until it exits. */
function sandboxCommand(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [sandboxBin(), ...args], { stdio: 'inherit' });
    // The terminal sends Ctrl-C to both processes; this one waits for the sandbox to close.
    const ignore = (): void => undefined;
    process.on('SIGINT', ignore);
    process.on('SIGTERM', () => child.kill('SIGTERM'));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
    });
  });
}

/** Builds the program; `done` receives the chosen command's work, so the caller owns the exit code. */
export function buildProgram(version: string, done: (run: Run) => void): Command {
  const program = new Command('wallet')
    .description(
      'The Wallet command line: reconcile a ledger, match settlements to the bank statement, check your setup, trigger and debug webhooks.',
    )
    .version(version)
    .option('--json', 'print results as JSON')
    .option('--base-url <url>', 'the service address (default: WALLET_BASE_URL)')
    .option(
      '--api-key <key>',
      'the secret key (default: WALLET_SECRET_KEY; prefer the variable, flags show in ps)',
    )
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)')
    // A usage error repeats what was typed: a key in a mistyped flag (--apikey=sk_live_…) is not printed.
    .configureOutput({ outputError: (text, write) => write(withoutKeys(text)) })
    .exitOverride();
  // A command's action: its one argument, then its flags with the global ones.
  const act =
    (command: (arg: never, flags: never, out: Output) => Promise<number>) =>
    (arg: unknown, ...rest: unknown[]): void => {
      const flags = (rest.at(-1) as Command).optsWithGlobals();
      done((out) => command(arg as never, flags as never, out));
    };

  ledgerOptions(
    program
      .command('reconcile')
      .description('verify every row of a ledger CSV and write a report with a verdict per row (read-only)')
      .argument('<file>', 'the ledger export, a CSV with a header row')
      .option('--out <file>', 'the report (.csv, or .jsonl for JSON lines) (default: FILE.report.csv)')
      .addOption(
        new Option('--format <format>', 'report format (default: from --out)').choices(['csv', 'jsonl']),
      )
      .option(
        '--resume',
        'carry on an interrupted run from its report (the same ledger only; its error rows are verified again)',
        false,
      ),
  ).action(act(reconcileCommand));

  ledgerOptions(
    program
      .command('settlements')
      .description(
        'verify a ledger, sum what the service settled per day, and check each day against the bank statement',
      )
      .argument('<file>', 'the ledger export, a CSV with a header row')
      .requiredOption('--statement <file>', "the bank statement's CSV export (one row per credit)")
      .option(
        '--time-zone <zone>',
        "the bank's time zone: settlement days are its calendar days",
        'Africa/Lagos',
      )
      .option('--date-column <name>', "the statement's column of the date", 'date')
      .option('--credit-column <name>', "the statement's column of the credit", 'credit')
      .addOption(
        new Option('--credit-unit <unit>', 'unit of the credit column (₦1,234.50 or whole Kobo)')
          .choices(['naira', 'kobo'])
          .default('naira'),
      )
      .addOption(
        new Option(
          '--statement-encoding <encoding>',
          "the statement's encoding when it is not UTF-8",
        ).choices([...ENCODINGS]),
      )
      .option('--out <file>', 'the report, CSV (default: FILE.settlements.csv)'),
  ).action(act(settlementsCommand));

  program
    .command('doctor')
    .description(
      'check the key, base URL, DNS, TLS 1.3, clock, an authenticated round trip and proxy variables',
    )
    .action(() => done((out) => doctorCommand(program.opts(), out)));

  const webhooks = program.command('webhooks').description('send and debug signed webhook deliveries');
  webhooks
    .command('trigger')
    .description('send a delivery signed exactly as the service signs one, and check the answer')
    .argument('<event>', 'the event kind: charge.success')
    .requiredOption('--to <url>', 'where to send it (your webhook endpoint)')
    .option('--secret <secret>', 'the webhook secret (default: WALLET_WEBHOOK_SECRET)')
    .option('--reference <ref>', 'the charge reference (default: a fresh one)')
    .option('--amount <kobo>', 'the amount in Kobo (default: 500000)', whole(1, Number.MAX_SAFE_INTEGER))
    .option('--handle <handle>', 'the customer handle (default: @ada)')
    .option(
      '--data <file>',
      "a JSON file with the event's data, your own fields (instead of the three above)",
    )
    .option(
      '--override <path=value>',
      'set a field of the data (amount=250000, customer.handle=@bola); repeatable',
      collect,
      [],
    )
    .option('--repeat <n>', 'send the same delivery N times (a redelivery)', whole(1, 100), 1)
    .action(act(triggerCommand));
  webhooks
    .command('verify')
    .description('say whether a captured delivery verifies, and if not, what changed it')
    .argument('[file]', 'the captured body (default: stdin)')
    .option('--secret <secret>', 'a webhook secret; give it again to try others (rotation)', collect, [])
    .requiredOption('--signature <sig>', 'the X-Wallet-Signature header as received')
    .action(act(webhookVerifyCommand));

  const charges = program.command('charges').description('look at charges');
  charges
    .command('verify')
    .description('what the service holds for a reference (exit 0 when SUCCESS)')
    .argument('<reference>')
    .action(act(verifyCommand));
  charges
    .command('wait')
    .description('wait for the customer to answer (exit 0 when SUCCESS)')
    .argument('<reference>')
    .option('--timeout <ms>', 'how long to wait', whole(1, 2_147_483_647))
    .action(act(waitCommand));

  program
    .command('refunds')
    .description('refund charges')
    .command('create')
    .description('refund a paid charge, in full or in part (asks first on a live key)')
    .argument('<reference>')
    .option('--amount <amount>', 'how much (default: all that is left)')
    .addOption(
      new Option('--amount-unit <unit>', 'unit of --amount').choices(['kobo', 'naira']).default('kobo'),
    )
    .option('--reason <text>', 'your reason, kept with the refund')
    .option(
      '--idempotency-key <key>',
      'the key to send: a retry of a run whose outcome is unknown reuses the key its message names',
    )
    .option('--yes', 'confirm a live-key refund without asking', false)
    .action(act(refundCommand));

  program
    .command('sandbox')
    .description(
      'serve the sandbox on loopback (the wallet-sandbox development server; --help for its flags)',
    )
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .argument('[args...]')
    .action((args: string[]) => done(() => sandboxCommand(args)));

  return program;
}
