/**
 * A Worker as Cloudflare receives it: `wrangler deploy --dry-run` of a merchant's entry, with the
 * proof install's wrangler (4.50.0, workerd 1.20251118), from the merchant's project.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { proofBin } from './pack.mjs';

const run = promisify(execFile);

/** The newest date this workerd knows; no compatibility flags (so no nodejs_compat) anywhere. */
export const COMPATIBILITY_DATE = '2025-11-01';

export interface WranglerBundle {
  path: string;
  bytes: number;
  text: string;
  /** Packages under node_modules that went into the bundle. */
  packages: string[];
  /** Imports left outside the bundle (a Node builtin here would fail on a real Worker). */
  externals: string[];
}

/** `wrangler deploy --dry-run --outdir`: the bundle Cloudflare would receive, and its metafile. */
export async function wranglerBundle(dir: string, entry: string, outdir: string): Promise<WranglerBundle> {
  await run(
    proofBin('wrangler'),
    ['deploy', entry, '--dry-run', '--outdir', outdir, '--metafile', join(outdir, 'meta.json')],
    {
      cwd: dir,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: dir,
        CI: 'true',
        WRANGLER_SEND_METRICS: 'false',
        WRANGLER_LOG_PATH: join(dir, 'wrangler-logs'),
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const path = join(dir, outdir, entry.replace(/\.ts$/, '.js'));
  const meta = JSON.parse(readFileSync(join(dir, outdir, 'meta.json'), 'utf8')) as {
    inputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
  };
  const packages = Object.keys(meta.inputs).flatMap(
    (input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? [],
  );
  const externals = Object.values(meta.inputs).flatMap((input) =>
    input.imports.filter((i) => i.external).map((i) => i.path),
  );
  return {
    path,
    bytes: statSync(path).size,
    text: readFileSync(path, 'utf8'),
    packages: [...new Set(packages)].sort(),
    externals: [...new Set(externals)].sort(),
  };
}
