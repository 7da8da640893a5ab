/**
 * Only undici's `Agent` (its pools, HTTP/1.1 client and `dispatch()`): the build bundles this file
 * with the undici files it reaches into `dist/undici-agent.*`, without fetch, WebSocket, the cache,
 * mocks or HTTP/2 (the client never offers h2, so its module is left out), which is what makes the
 * first call cheap. undici is MIT licensed; its notice is kept at the top of the bundle.
 */
import type { Agent as UndiciAgent } from 'undici';
// @ts-expect-error undici ships no declarations for its internal files; the type comes from its root.
import AgentClass from 'undici/lib/dispatcher/agent.js';

/** undici's `Agent` class. */
export const Agent: typeof UndiciAgent = AgentClass as typeof UndiciAgent;
