import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join } from 'node:path';

// The built docs site for site.system.ts: rebuilt when its inputs changed, served on loopback.

/** Newest modification time under `path` (a file or a folder). */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** `npm run check` builds the site; the site test rebuilds it when its inputs are newer. */
export function ensureFreshSite(root: string, site: string): void {
  const index = join(site, 'index.html');
  const inputs = ['src', 'docs', 'README.md', 'typedoc.json', 'scripts'].map((p) => join(root, p));
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const changed = Math.max(
    ...inputs.filter(existsSync).map((p) => (p.endsWith('docs') ? newestGuide(p) : newest(p))),
  );
  if (changed > built)
    execFileSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc')], { cwd: root });
}

function newestGuide(docs: string): number {
  return Math.max(
    0,
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => statSync(join(docs, f)).mtimeMs),
  );
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The site on loopback, as a static host would serve it (a test can then hold a file back). */
export function serve(site: string): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    const path = join(site, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(site) || !existsSync(path) || statSync(path).isDirectory()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    response.end(readFileSync(path));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, base: `http://127.0.0.1:${port}/` });
    }),
  );
}
