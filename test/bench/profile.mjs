// Where one client's CPU goes: runs it against the bench's loopback server under --cpu-prof and
// prints the heaviest files and functions by self time (the .cpuprofile stays for a viewer).
// Usage: npm run build && node test/bench/profile.mjs ['sdk charges.verify'] [calls] [outDir]
import { tmpdir } from 'node:os';
import { profileChild, selfTimes, top, withServer } from './cpu-profile.mjs';

const [variant = 'sdk charges.verify', calls = '20000', dir = tmpdir()] = process.argv.slice(2);
const clients = new URL('./clients.mjs', import.meta.url).pathname;

const path = await withServer((base) => {
  const code = `import { CLIENTS } from ${JSON.stringify(clients)};
    const client = await CLIENTS[${JSON.stringify(variant)}](${JSON.stringify(base)});
    let left = ${Number(calls)};
    await Promise.all(Array.from({ length: 32 }, async () => { while (left-- > 0) await client.call(); }));
    await client.close();`;
  const name = `${variant.replace(/\W+/g, '-')}.cpuprofile`;
  return profileChild(['--input-type=module', '-e', code], { dir, name });
});

const { busy, byFile, byFunction } = selfTimes([path]);
const share = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
console.log(`${variant}: ${calls} calls, ${(busy / 1000).toFixed(0)} ms busy; profile ${path}`);
console.log(`\nby file (self time, share of busy time)\n${top(byFile, 20, share)}`);
console.log(`\nby function\n${top(byFunction, 40, share)}`);
