import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { expect, it } from 'vitest';
import { ClientClosedError, ConnectionError, Wallet, type WalletError } from '@wallet/node';
import { TEST_KEY } from './helpers/mock-service.js';

it('a call whose first attempt reached the service and whose last could not connect never says only "Could not reach"', async () => {
  const sockets = new Set<Socket>();
  // The first request is read (the service may act), then the connection drops and the service
  // goes away: the retry meets a refused connection.
  const server = http.createServer((req) => {
    req.resume();
    req.on('end', () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    });
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: `http://127.0.0.1:${port}`,
    maxRetries: 1,
    logLevel: 'off',
  });
  const error = (await wallet.refunds
    .create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'rf-9' })
    .catch((e: unknown) => e)) as WalletError;
  await wallet.close();
  expect(error).toBeInstanceOf(ConnectionError);
  expect(error).toMatchObject({ attempts: 2, outcomeUnknown: true, code: 'connection_error' });
  expect(error.message).not.toMatch(/^Could not reach/);
  expect(error.message).toContain('ECONNREFUSED');
  expect(error.message).toContain('an earlier one may have');
  expect(error.message).toContain("idempotencyKey 'rf-9'");
});

it('a call through a dispatcher that was closed says so, never that the service could not be reached', async () => {
  const agent = new Agent();
  await agent.close();
  const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: 'https://pay.example.ng', dispatcher: agent });
  const error = (await wallet.refunds
    .create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'rf-10' })
    .catch((e: unknown) => e)) as WalletError;
  expect(error).toBeInstanceOf(ClientClosedError);
  expect(error).toMatchObject({ attempts: 1, outcomeUnknown: false, code: 'client_closed' });
  expect(error.message).not.toMatch(/Could not reach|MSW/);
  expect(error.message).toContain('the dispatcher it was given is closed');
  expect(error.message).toContain("retrying with idempotencyKey 'rf-10' is safe");
});

it('a retry refused by a dispatcher closed after the first attempt reached the service says the outcome is unknown, only its last attempt not sent', async () => {
  const agent = new Agent();
  const server = http.createServer((req, res) => {
    req.resume();
    void agent.close(); // a graceful shutdown, under way while the call waits to retry
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
    res.end('{"status":"error","message":"busy"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: `http://127.0.0.1:${port}`, dispatcher: agent });
  const error = (await wallet.refunds
    .create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'rf-11' })
    .catch((e: unknown) => e)) as WalletError;
  server.close();
  expect(error).toBeInstanceOf(ClientClosedError);
  expect(error).toMatchObject({ attempts: 2, outcomeUnknown: true });
  expect(error.message).toMatch(/^The last attempt of POST \/v1\/refunds .* was not sent/);
  expect(error.message).toContain('the dispatcher it was given is closed');
  expect(error.message).toContain('The outcome is unknown');
  expect(error.message).toContain("idempotencyKey 'rf-11'");
});

it('a retry refused by a dispatcher closed after an earlier attempt was answered never says the call was not sent', async () => {
  const agent = new Agent();
  const server = http.createServer((req, res) => {
    req.resume();
    void agent.close(); // a graceful shutdown, under way while the call waits to retry
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
    res.end('{"status":"error","message":"busy"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const wallet = new Wallet({ apiKey: TEST_KEY, baseUrl: `http://127.0.0.1:${port}`, dispatcher: agent });
  // A read: its first attempt was sent and answered 503, so the call was sent; only its last was not.
  const error = (await wallet.charges.verify('order_1042').catch((e: unknown) => e)) as WalletError;
  server.close();
  expect(error).toBeInstanceOf(ClientClosedError);
  expect(error).toMatchObject({ attempts: 2, outcomeUnknown: false });
  expect(error.message).toMatch(/^The last attempt of GET \/v1\/charges\/verify\/order_1042 .* was not sent/);
});

it('a call whose earlier attempt was answered and whose last could not connect never says that nothing reached the service', async () => {
  // The service answers the first attempt (a 429 that did nothing, a 503 to a read), then goes away:
  // the retry meets a refused connection.
  const answering = async (status: number) => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(status, {
          'content-type': 'application/json',
          'retry-after': '0',
          connection: 'close',
        });
        res.end('{"status":"error","message":"busy"}');
        server.close();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new Wallet({
      apiKey: TEST_KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      maxRetries: 1,
      logLevel: 'off',
    });
  };
  const refund = await answering(429);
  const refused = (await refund.refunds
    .create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'rf-12' })
    .catch((e: unknown) => e)) as WalletError;
  const read = await answering(503);
  const unread = (await read.charges.verify('order_1042').catch((e: unknown) => e)) as WalletError;
  await Promise.all([refund.close(), read.close()]);
  expect(refused).toBeInstanceOf(ConnectionError);
  expect(refused).toMatchObject({ attempts: 2, outcomeUnknown: false });
  expect(unread).toBeInstanceOf(ConnectionError);
  expect(unread).toMatchObject({ attempts: 2 });
  for (const error of [refused, unread]) {
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toMatch(/Could not reach|Nothing reached|MSW/);
  }
  expect(refused.message).toContain('answered an earlier attempt without acting on it');
  expect(refused.message).toContain("retrying with idempotencyKey 'rf-12' is safe");
});

it('a retry refused before sending (a circuit breaker) after an earlier attempt was sent never says that nothing was', async () => {
  // The first refund is answered 503 (it may have acted); the merchant's breaker refuses the retry.
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end('{"status":"error","message":"busy"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let calls = 0;
  const agent = new Agent();
  const wallet = new Wallet({
    apiKey: TEST_KEY,
    baseUrl: `http://127.0.0.1:${port}`,
    dispatcher: agent.compose((dispatch) => (opts, handler) => {
      if (++calls > 1) throw new Error('circuit open');
      return dispatch(opts, handler);
    }),
    maxRetries: 1,
    logLevel: 'off',
  });
  const error = (await wallet.refunds
    .create({ reference: 'order_1042', amount: 100_000 }, { idempotencyKey: 'rf-13' })
    .catch((e: unknown) => e)) as WalletError;
  await agent.close();
  await new Promise((resolve) => server.close(resolve));
  expect(error).toMatchObject({ attempts: 2, outcomeUnknown: true });
  expect(error.message).not.toContain('Nothing was sent');
  expect(error.message).toContain('The outcome is unknown');
  expect(error.message).toContain("idempotencyKey 'rf-13'");
});
