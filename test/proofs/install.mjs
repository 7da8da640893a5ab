// Installs the proof install (test/proofs/package.json) when it is missing or older than its
// lockfile, so `npm run test:proofs` works from a fresh clone and costs nothing the second time.
// `npm run proofs:install` always reinstalls.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// Every installed package at its locked version, and every package the lock needs on any platform
// (the optional per-platform binaries of other machines aside) installed.
function installedMatchesLock() {
  const installed = `${here}node_modules/.package-lock.json`;
  if (!existsSync(installed)) return false;
  const packages = (file) => JSON.parse(readFileSync(file, 'utf8')).packages;
  const have = packages(installed);
  const want = Object.entries(packages(`${here}package-lock.json`)).filter(([path]) => path !== '');
  return (
    Object.entries(have).every(
      ([path, entry]) => entry.version === want.find(([p]) => p === path)?.[1].version,
    ) && want.every(([path, entry]) => entry.optional || path in have)
  );
}

if (installedMatchesLock()) {
  console.log('test/proofs: the proof install matches its lockfile');
} else {
  console.log('test/proofs: installing what the proofs need (npm ci --prefix test/proofs)');
  execFileSync(npm, ['ci', '--prefix', here, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}
