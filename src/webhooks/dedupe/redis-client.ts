/**
 * One small adapter over the merchant's own Redis client, found by shape so that no Redis package
 * is imported (or even required to be installed) by this SDK.
 */
import { ValidationError } from '../../errors/validation.js';
import { describe } from '../../internal/describe.js';

/** A `redis` (node-redis v4 and later) client: `createClient()`, connected. */
export interface NodeRedisClientLike {
  /** node-redis's raw command call. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** An `ioredis` client: `new Redis()`. */
export interface IoRedisClientLike {
  /** ioredis's raw command call. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * A Redis client from the `redis` package (v4 and later, a single server, not `createCluster`) or
 * from `ioredis` (a single server or `Cluster`). The SDK loads neither: it uses the one you pass.
 */
export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike;

/** Sends one command, for example `['SET', key, value, 'NX']`, and resolves to the raw reply. */
export type RedisCommand = (args: readonly string[]) => Promise<unknown>;

/**
 * A command function for `client`, or a `ValidationError` for anything else, titled `what` (the
 * function it was given to). ioredis is tested first: it also has a `sendCommand`, which takes a
 * Command object rather than an array. The one adapter: `redisDedupeStore` and
 * `@wallet/agent-toolkit`'s `redisSpendLedger` (through `@wallet/node/workspace`) both use it.
 */
export function redisCommand(client: unknown, what = 'redisDedupeStore client'): RedisCommand {
  const c = client as Partial<Record<'call' | 'sendCommand', unknown>> | null;
  if (typeof c === 'object' && c !== null) {
    if (typeof c.call === 'function') {
      const io = client as IoRedisClientLike;
      return ([command, ...args]) => io.call(command!, ...args);
    }
    if (typeof c.sendCommand === 'function') {
      const node = client as NodeRedisClientLike;
      return (args) => node.sendCommand([...args]);
    }
  }
  throw new ValidationError(what, [
    {
      path: 'client',
      message: `must be a connected client of the redis (createClient) or ioredis package, got ${describe(client)}`,
    },
  ]);
}

/**
 * Runs `command`, rejecting after `ms`: the common clients queue commands while disconnected, and a
 * webhook answer (or an agent's money call) must not wait for Redis to come back. `name` starts
 * the message.
 */
export function withTimeout(command: RedisCommand, ms: number, name = 'Redis'): RedisCommand {
  return async (args) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${name} did not answer ${args[0]} within ${ms} ms.`)), ms);
    });
    try {
      return await Promise.race([command(args), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
