#!/usr/bin/env node
// bench/audit.mjs — the audit log's two heavy paths, against their goals (issue 22):
//
// 1. `hubctl audit export -o FILE` of 200,000 events (2,000 pages of 100) from the audit emulator
//    (in this process; the CLI is a child, measured alone with /usr/bin/time):
//    peak RSS ≤ 100 MB; client CPU ≤ 5 µs an event beyond JSON parsing. The parse-only floor is
//    JSON.parse of the same 2,000 page bodies, measured in this run; the client's CPU is the
//    child's user+system time less a bare start (`hubctl --version`), per event. An untimed export
//    of one hour first fills the V8 code cache, as any earlier run of a user's does.
// 2. `hubctl audit summary --by resource --input FILE` over 1,000,000 exported events:
//    ≥ 500,000 events/s end to end, peak RSS ≤ 150 MB.
//
//   npm run build && flock /tmp/bench.lock node bench/audit.mjs [--events 200000] [--summary 1000000]
//       [--runs 1] [--bin bin/hubctl.js]
//
// `--events 0` or `--summary 0` skips that part; `--runs N` runs the export N times (the figures of
// each run, then the median); `--bin` measures another build (a copy of bin/ and dist/ from before a
// change, run in the same period). BENCH_NODE_ARGS adds node options to the CLI's runs, for example
// `BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'` (the figures then include the profiler).
//
// Figures are noisy on a shared machine: the load average is printed with them.

import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const EXPORT_EVENTS = opt('events', 200_000);
const SUMMARY_EVENTS = opt('summary', 1_000_000);
const RUNS = Math.max(1, opt('runs', 1));
const binArg = args.indexOf('--bin');
const BIN = binArg >= 0 ? resolve(args[binArg + 1]) : join(root, 'bin/hubctl.js');
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z');

const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const out = mkdtempSync(join(cacheDir, 'hubctl-bench-audit-'));
let emulator;
try {
  await build({
    entryPoints: { emulator: join(root, 'test/support/audit-emulator.ts') },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  emulator = await import(pathToFileURL(join(out, 'emulator.mjs')).href);
} finally {
  rmSync(out, { recursive: true, force: true });
}

const work = mkdtempSync(join(tmpdir(), 'hubctl-bench-audit-'));

/** Runs the CLI under /usr/bin/time: elapsed s, CPU s (user + system), peak RSS MB. */
function timed(argv, env) {
  return new Promise((resolve, reject) => {
    execFile(
      '/usr/bin/time',
      ['-f', 'BENCH %e %U %S %M', process.execPath, ...NODE_ARGS, BIN, ...argv],
      {
        env: { PATH: process.env.PATH ?? '', HOME: work, HUBCTL_CONFIG_DIR: work, ...env },
        maxBuffer: 1 << 30,
      },
      (err, stdout, stderr) => {
        const m = /BENCH ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
        if (err || !m)
          return reject(new Error(`${argv.join(' ')} failed: ${err?.message}\n${stderr.slice(-2000)}`));
        resolve({
          elapsed: Number(m[1]),
          cpu: Number(m[2]) + Number(m[3]),
          user: Number(m[2]),
          sys: Number(m[3]),
          rssMB: Number(m[4]) / 1024,
          stdout,
        });
      },
    );
  });
}

const line = (what, value, goal, ok) =>
  console.log(`  ${what.padEnd(44)} ${value.padStart(14)}   goal ${goal}  ${ok ? 'met' : 'NOT MET'}`);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on this machine`,
);

// ---- 1. export ----
if (EXPORT_EVENTS > 0) {
  const span = 29 * 86_400_000;
  const events = [];
  for (let i = 0; i < EXPORT_EVENTS; i++)
    events.push(
      emulator.auditEvent(
        i + 1,
        new Date(ANCHOR - 1000 - Math.floor((i * span) / EXPORT_EVENTS)).toISOString(),
      ),
    );
  const emu = await emulator.startAuditEmulator({
    events: { acme: events },
    now: () => ANCHOR,
    perMinute: 1e9,
    perAddressMinute: 1e9,
    perHour: 1e9,
    pageSizeCap: 100,
  });
  // The parse-only floor: JSON.parse of the very page bodies the client reads.
  const bodies = [];
  for (let i = 0; i < events.length; i += 100)
    bodies.push(
      JSON.stringify({
        events: events.slice(i, i + 100),
        next_page_token: i + 100 < events.length ? 'x'.repeat(120) : '',
      }),
    );
  let parseBest = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    let n = 0;
    for (const b of bodies) n += JSON.parse(b).events.length;
    parseBest = Math.min(parseBest, (performance.now() - t) / 1000);
    if (n !== events.length) throw new Error('parse floor miscounted');
  }
  const parseUsPerEvent = (parseBest * 1e6) / events.length;
  const env = {
    HUBCTL_AUDIT_URL: emu.url,
    HUBCTL_AUDIT_TOKEN: 'hub_oat_acme-audit-0001',
    HUBCTL_ORG: 'acme',
    HUBCTL_AUDIT_MAX_RPM: '6000',
  };
  const file = join(work, 'export.ndjson');
  // Untimed: an export of the last hour fills the V8 code cache (shared by every run here, as a
  // user's runs share it), so the runs measure exporting rather than compiling dist's chunks once.
  await timed(
    [
      'audit',
      'export',
      '--from',
      new Date(ANCHOR - 3_600_000).toISOString(),
      '--to',
      new Date(ANCHOR).toISOString(),
      '-o',
      file,
    ],
    env,
  );
  rmSync(file, { force: true });
  const warmup = emu.requests.length;
  const runs = [];
  let size = 0;
  for (let r = 0; r < RUNS; r++) {
    const bare = await timed(['--version'], env);
    const run = await timed(
      [
        'audit',
        'export',
        '--from',
        new Date(ANCHOR - 30 * 86_400_000).toISOString(),
        '--to',
        new Date(ANCHOR).toISOString(),
        '-o',
        file,
      ],
      env,
    );
    size = statSync(file).size;
    rmSync(file, { force: true });
    runs.push({ ...run, cpuUs: ((run.cpu - bare.cpu) * 1e6) / events.length });
    if (RUNS > 1)
      console.log(
        `  run ${r + 1}: ${run.elapsed.toFixed(2)} s, CPU ${run.cpu.toFixed(2)} s (user ${run.user.toFixed(2)}, sys ${run.sys.toFixed(2)}; bare start ${bare.cpu.toFixed(2)} s), ${runs[r].cpuUs.toFixed(2)} µs/event, peak RSS ${run.rssMB.toFixed(1)} MB`,
      );
  }
  const pages = (emu.requests.length - warmup) / RUNS;
  await emu.close();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const elapsed = median(runs.map((x) => x.elapsed));
  const cpuUs = median(runs.map((x) => x.cpuUs));
  const rssMB = Math.max(...runs.map((x) => x.rssMB));
  const beyond = cpuUs - parseUsPerEvent;
  console.log(
    `\naudit export: ${events.length.toLocaleString('en-US')} events in ${pages} requests, ${(size / 1e6).toFixed(0)} MB written${RUNS > 1 ? ` (median of ${RUNS} runs; peak RSS the highest)` : ''}`,
  );
  line('elapsed (client and emulator share the CPUs)', `${elapsed.toFixed(2)} s`, '-', true);
  line('events/s end to end', Math.round(events.length / elapsed).toLocaleString('en-US'), '-', true);
  line(
    'parse-only floor, events/s (JSON.parse)',
    Math.round(1e6 / parseUsPerEvent).toLocaleString('en-US'),
    '-',
    true,
  );
  line('client CPU per event (less a bare start)', `${cpuUs.toFixed(2)} µs`, '-', true);
  line('ratio of client CPU to the parse-only floor', `${(cpuUs / parseUsPerEvent).toFixed(2)}x`, '-', true);
  line('client CPU per event beyond JSON parsing', `${beyond.toFixed(2)} µs`, '≤ 5 µs', beyond <= 5);
  line('peak RSS', `${rssMB.toFixed(1)} MB`, '≤ 100 MB', rssMB <= 100);
}

// ---- 2. summary --input ----
if (SUMMARY_EVENTS > 0) {
  const file = join(work, 'summary.ndjson');
  const stream = createWriteStream(file);
  const span = 365 * 86_400_000;
  let chunk = '';
  for (let i = 0; i < SUMMARY_EVENTS; i++) {
    chunk += `${JSON.stringify(emulator.auditEvent(i + 1, new Date(ANCHOR - Math.floor((i * span) / SUMMARY_EVENTS)).toISOString()))}\n`;
    if (chunk.length > 1 << 20) {
      if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r));
      chunk = '';
    }
  }
  stream.end(chunk);
  await new Promise((r) => stream.once('finish', r));
  const size = statSync(file).size;
  const runs = [];
  for (let r = 0; r < 3; r++)
    runs.push(await timed(['audit', 'summary', '--by', 'resource', '--input', file, '--json'], {}));
  const best = runs.reduce((a, b) => (b.elapsed < a.elapsed ? b : a));
  const groups = JSON.parse(best.stdout);
  const counted = groups.reduce((n, g) => n + g.count, 0);
  if (counted !== SUMMARY_EVENTS) throw new Error(`summary counted ${counted}, not ${SUMMARY_EVENTS}`);
  const rate = SUMMARY_EVENTS / best.elapsed;
  console.log(
    `\naudit summary --input: ${SUMMARY_EVENTS.toLocaleString('en-US')} events, ${(size / 1e6).toFixed(0)} MB (best of ${runs.length}: ${runs.map((x) => x.elapsed.toFixed(2)).join(', ')} s)`,
  );
  line('events/s end to end', Math.round(rate).toLocaleString('en-US'), '≥ 500,000', rate >= 500_000);
  line(
    'peak RSS',
    `${Math.max(...runs.map((x) => x.rssMB)).toFixed(1)} MB`,
    '≤ 150 MB',
    Math.max(...runs.map((x) => x.rssMB)) <= 150,
  );
  rmSync(file, { force: true });
}
rmSync(work, { recursive: true, force: true });
