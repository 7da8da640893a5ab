/**
 * A merchant's project with @wallet/node and its dependencies installed, and no msw, for the
 * type-checks of `@wallet/node/testing`'s declarations.
 */
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { requireBuild, root } from '../helpers/loaded-modules.js';

// The package is copied (through a symlink TypeScript would find msw beside its real path); its
// dependencies are linked.
export function projectWithoutMsw(): string {
  requireBuild();
  const dir = mkdtempSync(join(tmpdir(), 'wallet-no-msw-'));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@wallet', 'node'), { recursive: true });
  mkdirSync(join(modules, '@types'));
  cpSync(join(root, 'package.json'), join(modules, '@wallet', 'node', 'package.json'));
  cpSync(join(root, 'dist'), join(modules, '@wallet', 'node', 'dist'), { recursive: true });
  for (const dep of ['undici', 'zod', '@types/node', 'undici-types'])
    symlinkSync(join(root, 'node_modules', dep), join(modules, dep));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }),
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2023'],
        types: ['node'],
        noEmit: true,
      },
      files: ['checkout.test.ts', 'legacy.test.cts'],
    }),
  );
  // The ESM and CommonJS declarations, each used the way a merchant's test uses them.
  writeFileSync(
    join(dir, 'checkout.test.ts'),
    `import { Wallet } from '@wallet/node';
import { verifyWebhook } from '@wallet/node/webhooks';
import { createSandbox, signWebhook, type Sandbox, type SandboxMswHandler } from '@wallet/node/testing';

const sandbox: Sandbox = createSandbox({ webhookUrl: 'http://127.0.0.1:3000/hook', webhookSecret: 'whsec_x' });
const wallet = new Wallet({ apiKey: 'sk_test_x', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher });
const handlers: SandboxMswHandler[] = sandbox.handlers;
const { body, signature } = signWebhook({ event: 'charge.success', data: {} }, 'whsec_x');
export const checks = [wallet, handlers, verifyWebhook(body, signature, 'whsec_x'), sandbox.listen()];
`,
  );
  writeFileSync(
    join(dir, 'legacy.test.cts'),
    `import testing = require('@wallet/node/testing');
import wallet = require('@wallet/node');
const sandbox: testing.Sandbox = testing.createSandbox();
export = [new wallet.Wallet({ apiKey: 'sk_test_x', baseUrl: sandbox.baseUrl, dispatcher: sandbox.dispatcher }), sandbox.handlers];
`,
  );
  return dir;
}
