#!/usr/bin/env node
/** The `wallet` bin. Exit codes: 0 all is well, 1 a problem found (a mismatch, a failed check, a service error), 2 a usage error. */
import { readFileSync } from 'node:fs';

import { CommanderError } from 'commander';
import { isWalletError } from '@wallet/node';

import {
  createOutput,
  OK,
  PROBLEM,
  terminalMessage,
  USAGE,
  UsageError,
  withoutKeys,
  type Output,
} from './output.js';
import { buildProgram, type Run } from './program.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// `| head` closes the pipe early: the reader has all it wants, so end quietly instead of crashing.
// Before the command has its exit code, the run was cut short: never 0, which would say all is well.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? PROBLEM);
  });

const NO_COMMAND = 'no command given: the help printed on stderr lists them.';

/** A usage error with `--json`: a script reads stdout, so it gets one JSON value there too (keys cut). */
function usageData(out: Output, message: string): number {
  out.data({ error: { name: 'UsageError', code: 'usage', message: withoutKeys(message) } });
  return USAGE;
}

async function main(argv: readonly string[]): Promise<number> {
  let run: Run | undefined;
  const program = buildProgram(version, (chosen) => (run = chosen));
  // Read once parsing stopped: commander has taken `--json` wherever it was typed before the error.
  const output = (): Output => createOutput(program.opts<{ json?: boolean }>().json === true);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // `--help` asked for is 0; help shown because no command was given (`wallet`) is a usage error.
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return OK;
      // `wallet webhooks` alone: commander shows that command's help, its message a placeholder.
      const why = error.code === 'commander.help' ? NO_COMMAND : error.message.replace(/^error: /, '');
      return usageData(output(), why);
    }
    throw error;
  }
  const out = output();
  if (run === undefined) {
    // With --json stdout is for the JSON value: the help goes to stderr.
    program.outputHelp({ error: out.json });
    return usageData(out, NO_COMMAND);
  }
  try {
    return await run(out);
  } catch (error) {
    if (error instanceof UsageError) {
      // It repeats what was typed (a file name that is a key pasted in the wrong place): keys cut.
      out.note(`wallet: ${terminalMessage(withoutKeys(error.message))}`);
      return usageData(out, error.message);
    }
    if (isWalletError(error)) {
      // A bad key or URL in the environment is a setup problem: 1, with the SDK's own words.
      out.note(terminalMessage(error.message));
      if (out.json) out.data({ error: { name: error.name, code: error.code, message: error.message } });
      return PROBLEM;
    }
    // It can repeat what was typed too (a report named with a key pasted in --out): keys cut.
    const message = withoutKeys(error instanceof Error ? error.message : String(error));
    out.note(`wallet: ${terminalMessage(message)}`);
    // The same shape as the SDK's: a system error's code (ENOSPC), its own or its cause's, else `error`.
    const codeOf = (e: unknown): unknown => (e as { code?: unknown } | null)?.code;
    const code = codeOf(error) ?? codeOf((error as { cause?: unknown } | null)?.cause);
    const name = error instanceof Error ? error.name : 'Error';
    if (out.json) out.data({ error: { name, code: typeof code === 'string' ? code : 'error', message } });
    return PROBLEM;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wallet: ${String(error)}\n`);
    process.exitCode = PROBLEM;
  },
);
