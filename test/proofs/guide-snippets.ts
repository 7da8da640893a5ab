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
 * The `nth` (from 0) `ts` block under `heading` (a whole line, such as `### Express`) of `guide`,
 * before the next heading. Throws when the heading or its block is gone, naming which.
 */
export function guideSnippet(guide: string, heading: string, nth = 0): string {
  const lines = readFileSync(join(repo, guide), 'utf8').split('\n');
  const at = lines.indexOf(heading);
  if (at === -1) throw new Error(`${guide} has no heading "${heading}"`);
  const next = lines.findIndex((line, i) => i > at && /^#{1,6} /.test(line));
  // extractMarkdownExamples numbers lines from 1: the heading is line at + 1.
  const blocks = extractMarkdownExamples(repo, [guide]).filter(
    (example) => example.line > at + 1 && (next === -1 || example.line < next + 1),
  );
  const block = blocks[nth];
  if (!block) throw new Error(`${guide}: no TypeScript block ${nth + 1} under "${heading}"`);
  return block.code;
}

/**
 * The `nth` (from 0) block fenced as `lang` (`js`, `sh`) under `heading` of `guide`, before the
 * next heading, unindented. Throws when the heading or its block is gone, naming which.
 */
export function guideBlock(guide: string, heading: string, lang: string, nth = 0): string {
  const text = readFileSync(join(repo, guide), 'utf8');
  const at = text.split('\n').indexOf(heading);
  if (at === -1) throw new Error(`${guide} has no heading "${heading}"`);
  const after = text.split('\n').slice(at + 1);
  const next = after.findIndex((line) => /^#{1,6} /.test(line));
  const section = (next === -1 ? after : after.slice(0, next)).join('\n');
  const fence = new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\``, 'gm');
  const block = [...section.matchAll(fence)][nth];
  if (!block) throw new Error(`${guide}: no ${lang} block ${nth + 1} under "${heading}"`);
  return block[2]!.replace(new RegExp(`^${block[1]}`, 'gm'), '');
}
