/**
 * A verify loads only what a verify needs (docs/design.md, "The weight, measured"):
 * scripts/verify-modules.mjs runs one new Wallet() + charges.verify from the sources and lists
 * every src/ module loaded. verifyMany and reconcile load their files on their first run, so a
 * merchant who only verifies never loads the pool, the reconciliation or the money helpers.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../scripts/verify-modules.mjs', import.meta.url));

describe('the modules one charges.verify loads', () => {
  it('leaves out verifyMany, reconcile, their pool and the money helpers, 22 modules at most', () => {
    const out = execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    const modules = out.split('\n').filter((line) => line.startsWith('src/'));
    expect(modules).toContain('src/resources/charges.ts');
    expect(modules).not.toContain('src/resources/verify-many.ts');
    expect(modules).not.toContain('src/resources/reconcile.ts');
    expect(modules).not.toContain('src/resources/ordered-pool.ts');
    expect(modules).not.toContain('src/money.ts');
    expect(modules.length).toBeLessThanOrEqual(22);
  });
});
