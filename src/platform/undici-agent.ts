/**
 * Only undici's `Agent` (its pools, HTTP/1.1 client and `dispatch()`), from the undici version this
 * package pins: the build bundles this file with the undici files it reaches into
 * `dist/undici-agent.*`, without fetch, WebSocket, the cache, mocks or HTTP/2 (the client never
 * offers h2), which is what makes the first call cheap. The package depends on no undici at run
 * time, so an install holds this one copy (docs/design.md). undici is MIT licensed; its notice is
 * kept at the top of the bundle.
 */
import type { Agent as UndiciAgent } from 'undici';
// @ts-expect-error undici ships no declarations for its internal files; the type comes from its root.
import AgentClass from 'undici/lib/dispatcher/agent.js';
import type { AgentOptions, OwnDispatcher } from './types.js';

const Agent = AgentClass as typeof UndiciAgent;

/** The client's own Agent: undici's, as it is. */
export function createAgent(options: Omit<AgentOptions, 'proxy'>): OwnDispatcher {
  return new Agent(options);
}
