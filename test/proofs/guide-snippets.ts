/**
 * The guides' code as the proofs run it: read from the Markdown at run time, never copied, so a
 * proof fails the moment a guide's snippet stops working. The same extractor as the compile check
 * (test/docs/extract-examples.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { extractMarkdownExamples } from '../docs/extract-examples.js';
import { repo } from './pack.mjs';

/**
 * The first `ts` block under `heading` (a whole line, such as `### Express`) of `guide`, before the
 * next heading. Throws when the heading or its block is gone, naming which.
 */
export function guideSnippet(guide: string, heading: string): string {
  const lines = readFileSync(join(repo, guide), 'utf8').split('\n');
  const at = lines.indexOf(heading);
  if (at === -1) throw new Error(`${guide} has no heading "${heading}"`);
  // extractMarkdownExamples numbers lines from 1: the heading is line at + 1.
  const block = extractMarkdownExamples(repo, [guide]).find((example) => example.line > at + 1);
  const next = lines.findIndex((line, i) => i > at && /^#{1,6} /.test(line));
  if (!block || (next !== -1 && block.line > next + 1))
    throw new Error(`${guide}: no TypeScript block under "${heading}"`);
  return block.code;
}
