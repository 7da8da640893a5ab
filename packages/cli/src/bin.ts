#!/usr/bin/env node
/** The `wallet` bin. Exit codes: 0 all is well, 1 a problem found (a mismatch, a failed check, a service error), 2 a usage error. */
import { readFileSync } from 'node:fs';

import { CommanderError } from 'commander';
import { isWalletError } from '@wallet/node';

import { createOutput, OK, PROBLEM, terminalMessage, USAGE, UsageError } from './output.js';
import { buildProgram, withoutKeys, type Run } from './program.js';

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

async function main(argv: readonly string[]): Promise<number> {
  let run: Run | undefined;
  const program = buildProgram(version, (chosen) => (run = chosen));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // `--help` asked for is 0; help shown because no command was given (`wallet`) is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? OK : USAGE;
    throw error;
  }
  if (run === undefined) {
    program.outputHelp();
    return USAGE;
  }
  const out = createOutput(program.opts<{ json?: boolean }>().json === true);
  try {
    return await run(out);
  } catch (error) {
    if (error instanceof UsageError) {
      // It repeats what was typed (a file name that is a key pasted in the wrong place): keys cut.
      out.note(`wallet: ${terminalMessage(withoutKeys(error.message))}`);
      return USAGE;
    }
    if (isWalletError(error)) {
      // A bad key or URL in the environment is a setup problem: 1, with the SDK's own words.
      out.note(terminalMessage(error.message));
      if (out.json) out.data({ error: { name: error.name, code: error.code, message: error.message } });
      return PROBLEM;
    }
    out.note(`wallet: ${terminalMessage(error instanceof Error ? error.message : String(error))}`);
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
