/**
 * The README names the flags the `wallet` bin has, and only those: a flag renamed or removed in
 * the program fails here until the README says so, and a flag added is documented. The flags of
 * `wallet sandbox` are `wallet-sandbox`'s own (its `--help`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { expect, it } from 'vitest';

import { buildProgram, sandboxBin } from '../src/program.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
/** Flags of other tools the README quotes: npm's. */
const OTHERS = ['--save-dev'];

function flagsOf(command: Command): string[] {
  return [
    ...command.options.flatMap((option) => (option.long === undefined ? [] : [option.long])),
    ...command.commands.flatMap(flagsOf),
  ];
}

const program = new Set([...flagsOf(buildProgram('0.0.0', () => undefined)), '--help']);
const sandbox = new Set(
  execFileSync(process.execPath, [sandboxBin(), '--help'], { encoding: 'utf8' }).match(/--[a-z][a-z-]*/g),
);
const documented = new Set(README.match(/--[a-z][a-z0-9-]*/g));

it('documents every flag of every command', () => {
  const missing = [...program].filter((flag) => !documented.has(flag) && flag !== '--version');
  expect(missing).toEqual([]);
});

it('names no flag that neither the program nor wallet-sandbox has', () => {
  const unknown = [...documented].filter(
    (flag) => !program.has(flag) && !sandbox.has(flag) && !OTHERS.includes(flag),
  );
  expect(unknown).toEqual([]);
});
