/**
 * Bun and Deno: a Fetch runtime (the runtime's `fetch`, Web Crypto) that also has `node:crypto`,
 * so the synchronous webhook functions work there as on Node.
 */
import * as crypto from 'node:crypto';
import type { Platform } from './types.js';
import { webPlatform } from './web.js';

export const platform: Platform = { ...webPlatform, nodeCrypto: () => crypto };
