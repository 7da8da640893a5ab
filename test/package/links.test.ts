import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A guide read from node_modules or from the registry's page has only what the tarball ships:
// a relative link to a file left out (docs/design.md, examples/) is dead there. Links to what is
// not shipped point at the repository instead.

const root = fileURLToPath(new URL('../..', import.meta.url));
const workspaces = existsSync(join(root, 'packages'))
  ? readdirSync(join(root, 'packages')).map((name) => join('packages', name))
  : [];

/** The paths `npm pack` would put in the package's tarball, relative to its folder. */
function packedFiles(folder: string): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: join(root, folder),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
  return new Set(pack.files.map((file) => file.path));
}

/** Relative link targets in a Markdown file: `[text](target)`, without anchors or titles. */
function relativeLinks(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return targets
    .map((target) => target.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe.each(['.', ...workspaces.filter((w) => existsSync(join(root, w, 'package.json')))])(
  'the packed package in %s',
  (folder) => {
    it('has no relative link in its Markdown to a file it does not ship', () => {
      const files = packedFiles(folder);
      const dead: string[] = [];
      for (const file of [...files].filter((path) => path.endsWith('.md'))) {
        const text = readFileSync(join(root, folder, file), 'utf8');
        for (const target of relativeLinks(text)) {
          const resolved = normalize(join(dirname(file), target)).replace(/\/$/, '');
          const shipped = files.has(resolved) || [...files].some((p) => p.startsWith(`${resolved}/`));
          if (!shipped) dead.push(`${file} → ${target}`);
        }
      }
      expect(dead).toEqual([]);
    });
  },
);
