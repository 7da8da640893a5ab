// Statistics, the targets the bench holds the SDK to, and the printed table.

/** Median of a list of numbers. */
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `min–max` of a list, for the spread column. */
export const spread = (xs, digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

/** Median of the per-round ratios a[i] / b[i]: both sides of each ratio come from one round. */
export const ratio = (a, b) => median(a.map((x, i) => x / b[i]));

const MB = 1024 * 1024;
export const mb = (bytes) => `${(bytes / MB).toFixed(2)} MB`;

/**
 * The targets. `full` is the promise; `short` is the loose bound the few-second form inside
 * `npm test` holds, wide enough that a noisy machine cannot fail it but a real regression does.
 */
export const TARGETS = [
  {
    name: 'charges.verify vs raw undici dispatch() GET',
    unit: 'x',
    max: { full: 1.3, short: 2.5 },
    of: (r) => r.cpu.ratios['sdk charges.verify'],
  },
  {
    name: 'charges.dispatch vs raw dispatch() POST',
    unit: 'x',
    max: { full: 1.3, short: 2.5 },
    of: (r) => r.cpu.ratios['sdk charges.dispatch'],
  },
  {
    name: 'refunds.create vs raw dispatch() POST',
    unit: 'x',
    max: { full: 1.3, short: 2.5 },
    of: (r) => r.cpu.ratios['sdk refunds.create'],
  },
  {
    name: 'verifyWebhook throughput vs raw HMAC',
    unit: 'x',
    min: { full: 0.9, short: 0.7 },
    of: (r) => r.webhooks.throughput.verifyWebhook,
  },
  {
    name: 'verifyWebhookAsync throughput vs raw Web Crypto',
    unit: 'x',
    min: { full: 0.8, short: 0.6 },
    of: (r) => r.webhooks.throughput.verifyWebhookAsync,
  },
  {
    name: 'import @wallet/node over an empty module',
    unit: 'ms',
    // Milliseconds, not a ratio: a slow or busy CI machine doubles them (9 to 12 ms in CI runs).
    max: { full: 6, short: 20 },
    of: (r) => r.imports.over['@wallet/node'],
  },
  {
    name: 'import @wallet/node/webhooks over an empty module',
    unit: 'ms',
    max: { full: 2, short: 8 },
    of: (r) => r.imports.over['@wallet/node/webhooks'],
  },
  {
    name: 'cold start to first verify (CPU), ESM, vs global fetch',
    unit: 'x',
    max: { full: 1.0, short: 2.0 },
    of: (r) => coldRatio(r, 'esm'),
  },
  {
    name: 'cold start to first verify (CPU), CommonJS, vs global fetch',
    unit: 'x',
    max: { full: 1.0, short: 2.0 },
    of: (r) => coldRatio(r, 'cjs'),
  },
  {
    name: 'cold start RSS over empty, ESM, minus fetch',
    unit: ' MB',
    max: { full: 0, short: 8 },
    of: (r) => coldRss(r, 'esm'),
  },
  {
    name: 'cold start RSS over empty, CommonJS, minus fetch',
    unit: ' MB',
    max: { full: 0, short: 8 },
    of: (r) => coldRss(r, 'cjs'),
  },
  {
    name: 'sockets open at once, burst at concurrency 256',
    unit: '',
    max: { full: 64, short: 64 },
    of: (r) => r.sockets.sdk.peak,
  },
  {
    name: 'heap growth per call once warm, after GC',
    unit: ' B',
    max: { full: 16, short: 512 },
    of: (r) => r.heap.flat.bytesPerCall,
  },
];

// Held on CPU time: on a shared machine, wall time mostly measures the neighbours.
const coldRatio = (r, format) =>
  r.cold.rows['@wallet/node'][format].cpu / r.cold.rows['global fetch'][format].cpu;
const coldRss = (r, format) =>
  (r.cold.rows['@wallet/node'][format].rss - r.cold.rows['global fetch'][format].rss) / MB;

/** Each target with its measured value and whether it holds. */
export function checkTargets(results, form) {
  return TARGETS.map((t) => {
    const value = t.of(results);
    const bound = t.max ? t.max[form] : t.min[form];
    const holds = t.max ? value <= bound : value >= bound;
    return { name: t.name, value, bound: `${t.max ? '<=' : '>='} ${bound}${t.unit}`, unit: t.unit, holds };
  });
}

/** The cold-start table, and a line for each baseline skipped. */
export function coldTable(cold) {
  const fetchRow = cold.rows['global fetch'];
  const vs = (row, format) => (fetchRow ? `${(row[format].cpu / fetchRow[format].cpu).toFixed(2)}x` : '');
  const lines = [
    table(
      `Cold start: fresh process to the first verify result over loopback, minus an empty process of the ` +
        `same module system; median of ${cold.runs}; wall ms (CPU ms), ratios of CPU ms`,
      ['client', 'ESM ms', 'CommonJS ms', 'ESM vs fetch', 'CJS vs fetch', 'RSS over empty (ESM / CJS)'],
      Object.entries(cold.rows).map(([name, row]) => [
        name,
        `${row.esm.ms.toFixed(1)} (${row.esm.cpu.toFixed(1)})`,
        `${row.cjs.ms.toFixed(1)} (${row.cjs.cpu.toFixed(1)})`,
        vs(row, 'esm'),
        vs(row, 'cjs'),
        `+${(row.esm.rss / MB).toFixed(1)} / +${(row.cjs.rss / MB).toFixed(1)} MB`,
      ]),
    ),
  ];
  return [...lines, ...cold.skipped].join('\n');
}

function table(title, header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [`\n${title}`, line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join(
    '\n',
  );
}

/** The whole report as text. */
export function format(results, checks, meta) {
  const out = [`@wallet/node bench (${meta.form} form), ${meta.machine}`];
  const { cpu } = results;
  out.push(
    table(
      `Client CPU per call, concurrency ${cpu.concurrency}, ${cpu.rounds} rounds of ${cpu.window} ms, ` +
        'each client in its own process; ratio: median of the per-round ratios',
      ['client', 'µs/call', 'spread', 'calls/s', 'ratio', 'vs'],
      Object.entries(cpu.perCall).map(([name, xs]) => [
        name,
        median(xs).toFixed(1),
        spread(xs),
        Math.round(median(cpu.rate[name])),
        `${cpu.ratios[name].toFixed(2)}x`,
        cpu.against[name],
      ]),
    ),
  );
  const wh = results.webhooks;
  out.push(
    table(
      `Webhook verification, 105-byte delivery, CPU per verify, ${wh.rounds} rounds`,
      ['verifier', 'µs/op', 'spread', 'ops/s', 'throughput vs raw'],
      Object.entries(wh.perOp).map(([name, xs]) => [
        name,
        median(xs).toFixed(2),
        spread(xs, 2),
        Math.round(1e6 / median(xs)),
        wh.throughput[name] === undefined ? '' : `${wh.throughput[name].toFixed(2)}x`,
      ]),
    ),
  );
  const im = results.imports;
  out.push(
    table(
      `Import in fresh processes, median of ${im.runs}, CPU ms (wall ms beside)`,
      ['entry', 'CPU ms', 'spread', 'wall ms', 'over empty'],
      Object.entries(im.samples).map(([name, { cpu, wall }]) => [
        name,
        median(cpu).toFixed(2),
        spread(cpu, 1),
        median(wall).toFixed(2),
        name in im.over ? `${im.over[name].toFixed(2)} ms` : '',
      ]),
    ),
  );
  if (im.firstCall) {
    const f = im.firstCall;
    out.push(
      `first verify after import ${f.lazy.toFixed(1)} ms, first verify of a second client ${f.warm.toFixed(1)} ms: ` +
        `the lazy load of undici costs ${f.extra.toFixed(1)} ms once`,
    );
  }
  out.push(coldTable(results.cold));
  const { sockets, heap } = results;
  const rows = [
    [
      `sockets opened by ${sockets.calls} verifies at concurrency 256`,
      sockets.sdk.opened,
      sockets.raw?.opened ?? '',
    ],
    ['sockets open at once in that burst', sockets.sdk.peak, sockets.raw?.peak ?? ''],
    [
      `heap growth per call once warm (${heap.flat.calls} calls)`,
      `${heap.flat.bytesPerCall.toFixed(1)} B`,
      '',
    ],
  ];
  if (heap.inflight) {
    rows.push([
      `heap per call in flight (${heap.inflightCalls} concurrent)`,
      `${Math.round(heap.inflight.sdk)} B`,
      `${Math.round(heap.inflight.raw)} B`,
    ]);
  }
  out.push(table('Sockets and memory', ['measure', 'sdk', 'raw undici'], rows));
  if (!results.footprint) return [...out, targetsTable(checks)].join('\n');
  out.push(
    table(
      'Installed footprint (published files + runtime dependencies, apparent size)',
      ['package', 'own', 'dependencies', 'total'],
      Object.entries(results.footprint).map(([name, f]) => [
        name,
        mb(f.own),
        f.deps.map((d) => `${d.name} ${mb(d.bytes)}`).join(', ') || 'none',
        mb(f.total),
      ]),
    ),
  );
  return [...out, targetsTable(checks)].join('\n');
}

function targetsTable(checks) {
  return table(
    'Targets',
    ['target', 'measured', 'bound', ''],
    checks.map((c) => [c.name, `${c.value.toFixed(2)}${c.unit}`, c.bound, c.holds ? 'ok' : 'MISSED']),
  );
}
