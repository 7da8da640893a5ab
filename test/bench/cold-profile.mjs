// Where a cold start goes: fresh processes of one module system each make the first verify under
// --cpu-prof (sampling every 50 µs); this prints the self time per process, by package or dist file
// and by function, summed over the runs and divided by their number (one profile of a cold start
// is too few samples to rank its parts).
// Usage: npm run build && node test/bench/cold-profile.mjs ['@wallet/node'] [esm|cjs] [runs=9] [outDir]
import { tmpdir } from 'node:os';
import { program } from './cold-start.mjs';
import { profileChild, selfTimes, top, withServer } from './cpu-profile.mjs';

const [client = '@wallet/node', format = 'esm', runs = '9', dir = tmpdir()] = process.argv.slice(2);
const name = (i) => `cold-${client.replace(/\W+/g, '-')}-${format}-${i}.cpuprofile`;

const paths = await withServer((base) => {
  const code = program(client, format, base);
  const args = format === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
  return Array.from({ length: Number(runs) }, (_, i) =>
    profileChild(args, { dir, name: name(i), intervalUs: 50 }),
  );
});

const { busy, byFile, byFunction } = selfTimes(paths, { packages: true });
const ms = (us) => `${(us / 1000 / paths.length).toFixed(2).padStart(6)} ms`;
console.log(
  `${client} (${format}): ${ms(busy).trim()} busy to the first result, mean of ${paths.length} processes; ${paths[0]} …`,
);
console.log(`\nby package or file (self time)\n${top(byFile, 15, ms)}`);
console.log(`\nby function\n${top(byFunction, 25, ms)}`);
