// The peer SDKs the bench compares the client with (stripe-node, openai-node) live in their own
// install (`npm run bench:peers`, test/proofs/peers/package.json), not in the root one that every
// contributor runs. A peer that is not installed is skipped with a line saying so, never failed.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HOW = 'npm run bench:peers';

/** The peer's install directory, or undefined when it is not installed. */
export function peerDir(name) {
  const dir = fileURLToPath(new URL(`./node_modules/${name}`, import.meta.url));
  return existsSync(`${dir}/package.json`) ? dir : undefined;
}

/** The peer's module (its default export included), loaded from the peers' install. */
export async function importPeer(name) {
  if (!peerDir(name)) throw new Error(`${name} is not installed: ${HOW}`);
  return import(import.meta.resolve(name));
}

/** Whether the peer is there; when it is not, prints the line that says it is skipped and why. */
export function peerInstalled(name, what = name) {
  if (peerDir(name)) return true;
  console.log(`skipped ${what}: ${name} is not installed (${HOW} installs the bench's peer SDKs)`);
  return false;
}
