// What skipping an unsolicited `100 Continue` costs a call (src/platform/interim.ts): client CPU
// per raw undici dispatch() POST against a loopback server, through an Agent whose connector skips
// a 100 and through a plain one, each in its own child process. Variants are interleaved in rounds
// and the median round is reported, so noise hits them alike.
// Usage: node --import tsx test/bench/interim.mjs [callsPerRound] [rounds]
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Agent, buildConnector } from 'undici';
import { skipContinue } from '../../src/platform/interim.ts';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[2] === 'client') {
  const [, , , variant, base] = process.argv;
  const connector = buildConnector({});
  const connect = variant === 'skips 100' ? skipContinue(connector) : connector;
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, connect });
  const request = {
    origin: new URL(base).origin,
    path: '/v1/refunds',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"reference":"order_1042","amount":100000}',
  };
  const once = () =>
    new Promise((resolve, reject) =>
      agent.dispatch(request, {
        onConnect() {},
        onHeaders: () => true,
        onData: () => true,
        onComplete: resolve,
        onError: reject,
      }),
    );
  const run = async (n) => {
    let started = 0;
    const worker = async () => {
      while (started++ < n) await once();
    };
    await Promise.all(Array.from({ length: 32 }, worker));
  };
  await run(3_000);
  process.on('message', async (n) => {
    const cpu = process.cpuUsage();
    await run(n);
    const used = process.cpuUsage(cpu);
    process.send((used.user + used.system) / n);
  });
  process.on('disconnect', () => process.exit(0));
  process.send('ready');
} else {
  const calls = Number(process.argv[2] ?? 4_000);
  const rounds = Number(process.argv[3] ?? 15);
  const body = JSON.stringify({ status: 'success', data: { amount: 100000 } });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const self = fileURLToPath(import.meta.url);
  const start = (variant) =>
    new Promise((resolve) => {
      const child = fork(self, ['client', variant, base], { execArgv: ['--import', 'tsx'] });
      child.once('message', () => resolve(child));
    });
  const variants = ['plain', 'skips 100'];
  const children = Object.fromEntries(await Promise.all(variants.map(async (v) => [v, await start(v)])));
  const results = { plain: [], 'skips 100': [] };
  for (let round = 0; round < rounds; round++) {
    for (const variant of round % 2 ? variants : [...variants].reverse()) {
      const child = children[variant];
      results[variant].push(
        await new Promise((resolve) => (child.once('message', resolve), child.send(calls))),
      );
    }
  }
  for (const child of Object.values(children)) child.disconnect();
  server.close();
  const plain = median(results.plain);
  const skips = median(results['skips 100']);
  console.log(`client CPU per POST, median of ${rounds} rounds of ${calls} calls`);
  console.log(`plain Agent      ${plain.toFixed(2)} µs`);
  console.log(`skips a 100      ${skips.toFixed(2)} µs  (${(skips / plain).toFixed(3)}x)`);
}
