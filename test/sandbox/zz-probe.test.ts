import { connect } from 'node:net';
import { describe, it } from 'vitest';
import { createSandbox } from '@wallet/node/testing';

describe('probe', () => {
  it('partial body then close', async () => {
    const lines: string[] = [];
    const sandbox = createSandbox({ logger: { info: (l) => lines.push(l), warn: (l) => lines.push(l) } });
    const { port } = await sandbox.listen();
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /v1/refunds HTTP/1.1\r\nhost: x\r\nauthorization: Bearer sk_test_1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"ref');
    socket.on('error', () => {});
    await new Promise((r) => setTimeout(r, 100));
    await sandbox.close();
    await new Promise((r) => setTimeout(r, 300));
    console.log('LINES', lines, sandbox.requests.length);
  });
});
