import { fork, spawnSync } from 'node:child_process';
const here = (f) => new URL(f, import.meta.url).pathname;
const srv = fork(here('server.mjs'));
const { port } = await new Promise(r => srv.once('message', r));
const variant = process.argv[2]; const n = process.argv[3] ?? '20000';
const code = `
import { CLIENTS } from '${here('clients.mjs')}';
const c = await CLIENTS[${JSON.stringify(variant)}]('http://127.0.0.1:${port}');
let left = ${n}; await Promise.all(Array.from({length: 32}, async () => { while (left-- > 0) await c.call(); }));
await c.close();`;
const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--cpu-prof-name=' + variant.replace(/\W/g,'_') + '.cpuprofile', '--input-type=module', '-e', code], { cwd: here('../..'), encoding: 'utf8' });
console.log(r.status, r.stderr.slice(0, 500));
srv.disconnect();
