// Client-side CPU per call: the SDK against bare undici request() and global fetch doing the same
// exchange. The server runs in a child process so only the client's CPU is counted; variants are
// interleaved in rounds so machine noise hits them alike.
// Usage: npm run build && node test/bench/per-call.mjs [callsPerRound] [rounds]
import { fork } from 'node:child_process';
import { request, Agent } from 'undici';
import { Wallet } from '@wallet/node';

const calls = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 5);

if (process.argv[2] === 'serve') {
  const http = await import('node:http');
  const tx = JSON.stringify({
    status: 'success',
    data: {
      reference: 'order_1042',
      amount: 500000,
      currency: 'NGN',
      fee: 10000,
      netAmount: 490000,
      status: 'SUCCESS',
      channel: 'wallet_push',
      customer: { handle: '@ada', phone: '+2348000000001', name: 'Ada Obi' },
      settlement: { status: 'SETTLED', settledAt: '2026-11-21T12:00:00Z' },
      paidAt: '2026-11-21T10:01:00Z',
    },
  });
  const refund = JSON.stringify({
    status: 'success',
    message: 'Refund processed',
    data: {
      refundReference: 'rf_1',
      amount: 100,
      currency: 'NGN',
      status: 'PROCESSED',
      refundedAt: '2026-11-21T13:00:00Z',
    },
  });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'POST' ? refund : tx);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else {
  const child = fork(new URL(import.meta.url).pathname, ['serve']);
  const port = await new Promise((r) => child.once('message', r));
  const base = `http://127.0.0.1:${port}`;
  const agent = new Agent();
  const wallet = new Wallet({ apiKey: 'sk_test_bench', baseUrl: base });
  const headers = { authorization: 'Bearer sk_test_bench', accept: 'application/json' };
  const variants = {
    'undici request() + JSON.parse': async () => {
      const res = await request(`${base}/v1/charges/verify/order_1042`, { dispatcher: agent, headers });
      return JSON.parse(await res.body.text());
    },
    'global fetch + json()': async () =>
      (await fetch(`${base}/v1/charges/verify/order_1042`, { headers })).json(),
    '@wallet/node charges.verify': () => wallet.charges.verify('order_1042'),
    '@wallet/node refunds.create (POST)': () =>
      wallet.refunds.create({ reference: 'order_1042', amount: 100 }),
  };
  for (const run of Object.values(variants)) for (let i = 0; i < 50; i++) await run(); // warm up
  const cpu = Object.fromEntries(Object.keys(variants).map((k) => [k, 0]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of Object.entries(variants)) {
      const start = process.cpuUsage();
      for (let i = 0; i < calls; i++) await run();
      const used = process.cpuUsage(start);
      cpu[name] += used.user + used.system;
    }
  }
  const total = calls * rounds;
  const ref = cpu['global fetch + json()'] / total;
  console.log(`${total} calls per variant, node ${process.version}; client CPU per call`);
  for (const [name, us] of Object.entries(cpu)) {
    console.log(
      name.padEnd(38),
      `${(us / total).toFixed(1)} µs`.padStart(10),
      `${(us / total / ref).toFixed(2)}x fetch`.padStart(12),
    );
  }
  await wallet.close();
  await agent.close();
  child.kill();
}
