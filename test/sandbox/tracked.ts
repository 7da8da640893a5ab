/**
 * Sandboxes a test file makes, each closed after its test: call `trackSandboxes()` once at the top
 * of the file and make sandboxes with what it returns.
 */
import { afterEach } from 'vitest';

import { createSandbox } from '@wallet/node/testing';
import type { Sandbox, SandboxOptions } from '@wallet/node/testing';

/** `createSandbox`, with every sandbox it made closed after each test of the calling file. */
export function trackSandboxes(): (options?: SandboxOptions) => Sandbox {
  const sandboxes: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  });
  return (options = {}) => {
    const sandbox = createSandbox(options);
    sandboxes.push(sandbox);
    return sandbox;
  };
}
