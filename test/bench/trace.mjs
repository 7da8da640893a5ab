// What the diagnostics channel costs. (1) The path every call takes when nobody subscribes:
// traceCall() around a call against the call alone, in nanoseconds. (2) Client CPU per verify call
// against a loopback server (in a child process), with and without a subscriber on every event.
// Variants are interleaved in rounds and the median round is reported, so noise hits them alike.
// Usage: node --import tsx test/bench/trace.mjs [callsPerRound] [rounds]
import { fork } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { traceCall } from '../../src/core/trace.ts';
import { Wallet } from '../../src/index.ts';

const calls = Number(process.argv[2] ?? 2_000);
const rounds = Number(process.argv[3] ?? 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[2] === 'serve') {
  const http = await import('node:http');
  const body = JSON.stringify({
    status: 'success',
    data: {
      reference: 'order_1042',
      amount: 500000,
      currency: 'NGN',
      status: 'PENDING_AUTHORIZATION',
      channel: 'wallet_push',
      customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
    },
  });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else {
  // (1) The no-subscriber path, measured where nothing else hides it.
  const result = { data: 1, response: {} };
  const run = () => Promise.resolve(result);
  const micro = { 'call alone': [], 'traceCall, no subscriber': [] };
  const loops = 1_000_000;
  const microVariants = {
    'call alone': () => run(),
    'traceCall, no subscriber': () => traceCall('GET', '/v1/charges/verify/{reference}', run),
  };
  for (const fn of Object.values(microVariants)) for (let i = 0; i < loops; i++) await fn(); // warm up
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so neither always runs on a warmer or colder machine.
    const order = Object.entries(microVariants);
    if (r % 2) order.reverse();
    for (const [name, fn] of order) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < loops; i++) await fn();
      micro[name].push(Number(process.hrtime.bigint() - t) / loops);
    }
  }
  console.log(`(1) ${loops} calls x ${rounds} rounds, node ${process.version}; median time per call`);
  for (const [name, ns] of Object.entries(micro)) console.log(name.padEnd(30), `${median(ns).toFixed(1)} ns`);
  const added = median(micro['traceCall, no subscriber']) - median(micro['call alone']);
  console.log('added by tracing with no subscriber'.padEnd(30), `${added.toFixed(1)} ns`);

  // (2) Whole calls, client CPU only.
  const child = fork(new URL(import.meta.url).pathname, ['serve']);
  const port = await new Promise((resolve) => child.once('message', resolve));
  const wallet = new Wallet({ apiKey: 'sk_test_bench', baseUrl: `http://127.0.0.1:${port}` });
  const tracing = diagnostics.tracingChannel('wallet:request');
  const spans = new WeakMap();
  const subscriber = {
    start: (m) => spans.set(m, performance.now()),
    end: () => {},
    asyncStart: () => {},
    asyncEnd: (m) => spans.get(m),
    error: () => {},
  };
  const variants = {
    'verify, no subscriber': () => {},
    'verify, subscriber on every event': () => tracing.subscribe(subscriber),
  };
  for (let i = 0; i < 200; i++) await wallet.charges.verify('order_1042');
  const cpu = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, setUp] of Object.entries(variants)) {
      setUp();
      const start = process.cpuUsage();
      for (let i = 0; i < calls; i++) await wallet.charges.verify('order_1042');
      const used = process.cpuUsage(start);
      tracing.unsubscribe(subscriber);
      cpu[name].push((used.user + used.system) / calls);
    }
  }
  const base = median(cpu['verify, no subscriber']);
  console.log(`(2) ${calls} calls x ${rounds} rounds; median client CPU per call`);
  for (const [name, us] of Object.entries(cpu)) {
    console.log(
      name.padEnd(36),
      `${median(us).toFixed(1)} µs`.padStart(10),
      `${(median(us) / base).toFixed(3)}x`,
    );
  }
  await wallet.close();
  child.kill();
}
