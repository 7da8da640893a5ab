const t0 = performance.now();
const s = await import(process.cwd() + '/dist/schemas.js');
const t1 = performance.now();
const answers = await import('./bodies.mjs');
const data = JSON.parse(answers.TRANSACTION).data;
const a = performance.now(); s.check(s.verifyParams, { reference: 'x' }); const b = performance.now();
s.check(s.transaction, data, 'data'); const c = performance.now();
console.log(`import ${(t1 - t0).toFixed(2)} params ${(b - a).toFixed(2)} answer ${(c - b).toFixed(2)} ms`);
