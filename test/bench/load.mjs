// Memory and sockets under load, for one client in its own process (run with --expose-gc).
//   burst: `calls` verifies with 256 in flight from a cold client; the server counts the sockets.
//   inflight: heap held per call while 1,000 calls wait on a slow answer.
//   flat: heap growth per call over repeated equal loads, after GC, once warmed up.
// Usage (by the bench): fork('load.mjs', [mode, variant, baseUrl, calls, warmLoads, loads])
import { CLIENTS } from './clients.mjs';

const [mode, variant, base, calls, warm = '0', count = '0'] = process.argv.slice(2);
const n = Number(calls);
const [warmLoads, loads] = [Number(warm), Number(count)];

async function run(client, count, concurrency) {
  let left = count;
  const worker = async () => {
    while (left-- > 0) await client.call();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function heap() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

const MODES = {
  async burst() {
    const client = await CLIENTS[variant](base);
    await run(client, n, 256);
    await client.close();
    return {};
  },
  async inflight() {
    // The server holds each answer 100 ms, so every call is still pending when the heap is read.
    const client = await CLIENTS[variant](base, 'slow_100');
    await run(client, 200, 64);
    const before = heap();
    const pending = Array.from({ length: n }, () => client.call());
    await new Promise((resolve) => setTimeout(resolve, 30));
    const during = heap();
    await Promise.all(pending);
    await client.close();
    return { bytesPerCall: (during - before) / n };
  },
  async flat() {
    // Code and type feedback keep growing for a while as the JIT settles; a leak grows with the
    // number of calls. So: warm up, then read the heap after each of `loads` equal loads and take
    // the least-squares slope, in bytes per call.
    const client = await CLIENTS[variant](base);
    for (let i = 0; i < warmLoads; i++) await run(client, n, 64);
    const readings = [];
    for (let i = 0; i < loads; i++) {
      await run(client, n, 64);
      readings.push(heap());
    }
    await client.close();
    const xs = readings.map((_, i) => i * n);
    const mx = xs.reduce((a, b) => a + b) / loads;
    const my = readings.reduce((a, b) => a + b) / loads;
    const slope =
      xs.reduce((sum, x, i) => sum + (x - mx) * (readings[i] - my), 0) /
      xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
    return { bytesPerCall: slope, calls: n * (warmLoads + loads), heapBytes: readings.at(-1) };
  },
};

process.send(await MODES[mode]());
