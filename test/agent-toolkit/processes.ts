/**
 * Real processes for the MCP proofs: the `wallet-sandbox` bin on a free port, and `wallet-mcp`
 * (from the sources, through tsx) driven by the official MCP client over stdio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// A tool's structured content is JSON the test reads by path, as a model would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Data = Record<string, any>;

export const MCP_BIN = 'packages/agent-toolkit/src/hosts/mcp-bin.ts';

/** Whether this Node has node:sqlite (22.13+, 23.4+): the default ledger needs it. */
export const HAS_SQLITE: boolean = process.getBuiltinModule('node:sqlite') !== undefined;

/** A fresh ledger file's path, in a folder of its own. */
export function ledgerFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'wallet-ledger-')), 'spend-ledger.sqlite');
}

/** WALLET_MCP_LEDGER for a test: a fresh SQLite file where Node has node:sqlite, else memory. */
export function testLedger(): string {
  return HAS_SQLITE ? `sqlite:${ledgerFile()}` : 'memory';
}

/** The sandbox bin, serving on loopback. */
export interface SandboxProcess {
  url: string;
  /** The API requests it answered (its request log), as `METHOD path`. */
  requests(): Promise<string[]>;
  /** Plays the customer: authorizes a dispatched charge. */
  authorize(reference: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startSandbox(): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['dist/wallet-sandbox.js', '--port', '0', '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`wallet-sandbox exited ${code}: ${out}`)));
  });
  return {
    url,
    async requests() {
      const state = (await (await fetch(`${url}/_sandbox/state`)).json()) as {
        data: { requests: { method: string; path: string }[] };
      };
      return state.data.requests.map((r) => `${r.method} ${r.path}`);
    },
    async authorize(reference) {
      const response = await fetch(`${url}/_sandbox/charges/${encodeURIComponent(reference)}/authorize`, {
        method: 'POST',
      });
      if (!response.ok)
        throw new Error(`authorize ${reference}: ${response.status} ${await response.text()}`);
    },
    stop: () => stop(child),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** An MCP client connected to a `wallet-mcp` started with `env` (and nothing else from ours). */
export interface McpSession {
  client: Client;
  /** Calls a tool; resolves to its text, isError and structured data. */
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; data: Data }>;
  stderr(): string;
  /** What the client could not read as protocol (a stray line on stdout would land here). */
  problems(): string[];
  /** The elicitation requests the server sent this client. */
  asked: ElicitRequest['params'][];
  close(): Promise<void>;
}

/** A client that declares elicitation and answers each request with `answer`. */
export type Elicit = (params: ElicitRequest['params']) => ElicitResult;

export async function startMcp(env: Record<string, string>, elicit?: Elicit): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', MCP_BIN],
    cwd: ROOT,
    env: {
      WALLET_LOG: 'off',
      ...(env['WALLET_MCP_REDIS_URL'] === undefined ? { WALLET_MCP_LEDGER: testLedger() } : {}),
      ...env,
    },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const client = new Client(
    { name: 'agent-toolkit-test', version: '1.0.0' },
    elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  const problems: string[] = [];
  const asked: ElicitRequest['params'][] = [];
  client.onerror = (error) => problems.push(error.message);
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return elicit(request.params);
    });
  }
  await client.connect(transport);
  return {
    client,
    problems: () => problems,
    asked,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text: string }[];
      return {
        isError: result.isError === true,
        text: content[0]!.text,
        data: result.structuredContent ?? {},
      };
    },
    stderr: () => err,
    close: () => client.close(),
  };
}

/** Runs `wallet-mcp` expecting it to refuse to start: its exit code and what it said. */
export async function mcpRefusal(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MCP_BIN], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}
