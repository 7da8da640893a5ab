import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One fenced code block from an `@example` of a TSDoc comment. */
export interface TsDocExample {
  /** Where it is, for people: `src/client.ts:14`. */
  where: string;
  /** Line of the block's first code line in the source (1-based). */
  line: number;
  code: string;
}

const COMMENT = /\/\*\*[\s\S]*?\*\//g;
const FENCE = /```(ts|typescript|js|javascript)\n([\s\S]*?)```/g;

/** Every `ts`/`js` code block that follows an `@example` tag in a `/** … *\/` comment under `dir`. */
export function extractExamples(root: string, dir = 'src'): TsDocExample[] {
  const examples: TsDocExample[] = [];
  for (const file of sourceFiles(join(root, dir))) {
    const text = readFileSync(file, 'utf8');
    for (const comment of text.matchAll(COMMENT)) {
      // Drop the comment's frame: `/**`, the leading ` * ` of each line and `*/`.
      const body = comment[0]
        .slice(3, -2)
        .split('\n')
        .map((line) => line.replace(/^\s*\* ?/, ''))
        .join('\n');
      const at = body.indexOf('@example');
      if (at === -1) continue;
      const commentLine = text.slice(0, comment.index).split('\n').length;
      for (const block of body.slice(at).matchAll(FENCE)) {
        // The frame keeps line breaks, so a line of `body` is the same line of the file.
        const fenceLine = commentLine + body.slice(0, at + block.index).split('\n').length - 1;
        const line = fenceLine + 1;
        examples.push({ where: `${relative(root, file)}:${line}`, line, code: block[2]! });
      }
    }
  }
  return examples;
}

/** Every `ts` code block of the given Markdown files (paths relative to `root`). */
export function extractMarkdownExamples(root: string, files: readonly string[]): TsDocExample[] {
  return files.flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return [...text.matchAll(/^( *)```ts\n([\s\S]*?)^\1```/gm)].map((block) => {
      const line = text.slice(0, block.index).split('\n').length + 1;
      const indent = new RegExp(`^${block[1]}`, 'gm');
      return { where: `${file}:${line}`, line, code: block[2]!.replace(indent, '') };
    });
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    })
    .sort();
}
