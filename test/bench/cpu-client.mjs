// One client in its own process: builds it, warms it up, then on each { ms, concurrency } from the
// parent keeps that many calls in flight for that long and reports the calls it finished and the
// CPU it used. Only this process's CPU is counted, so the server's work never blurs the figure.
// Usage (by the bench): fork('cpu-client.mjs', [variant, baseUrl, warmupCalls])
import { CLIENTS } from './clients.mjs';

const [variant, base, warmup] = process.argv.slice(2);
const client = await CLIENTS[variant](base);

/** Runs calls with `concurrency` in flight until `done()` says stop; resolves to the count. */
async function run(concurrency, done) {
  let calls = 0;
  const worker = async () => {
    while (!done(calls)) {
      calls++;
      await client.call();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return calls;
}

await run(32, (n) => n >= Number(warmup));
process.on('message', async ({ ms, concurrency }) => {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const calls = await run(concurrency, () => performance.now() - wall >= ms);
  const used = process.cpuUsage(cpu);
  const elapsed = performance.now() - wall;
  process.send({ cpuUs: (used.user + used.system) / calls, rate: (calls / elapsed) * 1000 });
});
process.on('disconnect', () => void client.close().finally(() => process.exit(0)));
process.send({ ready: true });
