/**
 * Only undici's `Agent`, from the pinned undici, bundled into `dist/undici-agent.*` (no fetch,
 * WebSocket, cache, mocks or HTTP/2): the one copy an install holds. Its MIT notice tops the bundle.
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
