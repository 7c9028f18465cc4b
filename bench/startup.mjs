#!/usr/bin/env node
// Start-up cost of hubctl against bare node, measured in the same run (issues 2 and 14).
//   node bench/startup.mjs [--runs 21]
// Prints the median wall time of each command over interleaved runs, the ratio to `node -e 0`, and
// the goal; then lists which heavy modules (undici, cli-table3, chalk, cli-progress, yaml, valibot) each
// command loaded. Needs a build (`npm run build`). Exits 1 when a heavy module loads where it must not.
//
// Every process runs in a clean environment: PATH, a temporary HOME and config directory, NO_COLOR,
// and nothing else. NODE_EXTRA_CA_CERTS in particular would load a CA bundle into every process,
// `node -e 0` included (~35 ms here), and hide hubctl's own cost in the ratio; NODE_OPTIONS could
// change anything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin/hubctl.js');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 21;

if (!existsSync(join(ROOT, 'dist/cli.js'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(2);
}

const configDir = mkdtempSync(join(tmpdir(), 'hubctl-bench-'));
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: configDir,
  HUBCTL_CONFIG_DIR: configDir,
  NO_COLOR: '1',
};
const HEAVY = [
  'undici',
  'cli-table3',
  'chalk',
  'cli-progress',
  'yaml',
  'valibot',
  '@cedar-policy/cedar-wasm',
];

const cases = [
  { name: 'node -e 0', args: ['-e', '0'], goal: null },
  { name: 'hubctl --version', args: [BIN, '--version'], goal: 1.2 },
  { name: 'hubctl --help', args: [BIN, '--help'], goal: 1.4 },
];
const example = join(ROOT, 'examples/network.yaml');
if (existsSync(example)) {
  cases.push({
    name: 'hubctl policy eval connect:tcp api.github.com:443 -f examples/network.yaml',
    args: [BIN, 'policy', 'eval', 'connect:tcp', 'api.github.com:443', '-f', example],
    goal: 1.6,
    // Allowed or denied are both answers; anything else is a failure of the command.
    okCodes: [0, 3],
  });
} else {
  console.log('(examples/network.yaml not found: the policy eval line is skipped)');
}

// CPU time of reaped children (cutime + cstime of /proc/self/stat, in clock ticks): a busy machine
// stretches wall time far more than CPU time. Summed over all runs of a case, the 10 ms tick is fine.
const cpu = new Map();
const TICK_MS = 10;
function childTicks() {
  if (!existsSync('/proc/self/stat')) return 0;
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return Number(fields[13]) + Number(fields[14]);
}

function once(c, extraEnv = {}) {
  const ticks = childTicks();
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.args, {
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    cwd: ROOT,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  cpu.set(c.name, (cpu.get(c.name) ?? 0) + (childTicks() - ticks) * TICK_MS);
  if (!(c.okCodes ?? [0]).includes(r.status)) {
    throw new Error(`${c.name} exited ${r.status}: ${r.stderr.trim()}`);
  }
  return ms;
}

// Warm the file cache (a command that fails is reported and left out), then interleave so drift
// of the machine hits every case alike.
let failed = 0;
for (const c of [...cases]) {
  try {
    once(c);
  } catch (err) {
    console.log(`(skipped: ${err.message})`);
    cases.splice(cases.indexOf(c), 1);
    failed++;
  }
}
const times = new Map(cases.map((c) => [c.name, []]));
cpu.clear();
for (let i = 0; i < RUNS; i++) for (const c of cases) times.get(c.name).push(once(c));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const base = median(times.get('node -e 0'));
const cpuBase = cpu.get('node -e 0');
console.log(
  `median wall time, and mean CPU time, of ${RUNS} interleaved runs (node ${process.version}, clean environment, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')})`,
);
const width = Math.max(...cases.map((c) => c.name.length));
let missed = 0;
for (const c of cases) {
  const m = median(times.get(c.name));
  const cpuRatio = cpu.get(c.name) / cpuBase;
  // The goal is judged on CPU time when the machine can tell it (Linux), else on wall time.
  const ratio = cpuBase > 0 ? cpuRatio : m / base;
  const verdict =
    c.goal === null ? '' : ratio <= c.goal ? `goal ≤ ${c.goal}×  ok` : `goal ≤ ${c.goal}×  MISSED`;
  if (c.goal !== null && ratio > c.goal) missed++;
  const cpuMs = `${(cpu.get(c.name) / RUNS).toFixed(1).padStart(6)} ms CPU ${cpuRatio.toFixed(2)}×`;
  console.log(
    `  ${c.name.padEnd(width)}  ${m.toFixed(1).padStart(7)} ms ${(m / base).toFixed(2)}×  ${cpuMs}  ${verdict}`,
  );
}

// Which heavy modules each command pulled in (none may load for these commands). A package that
// scripts/build.mjs bundles resolves to no node_modules path; a chunk that bundles a CommonJS one
// (undici) still names its files, in esbuild's module keys (`…/node_modules/undici/lib/…`).
const bundled = new Map();
function bundledIn(url) {
  if (!url.includes('/dist/') || !url.endsWith('.js')) return new Set();
  if (!bundled.has(url)) {
    const text = readFileSync(new URL(url), 'utf8');
    bundled.set(url, new Set(HEAVY.filter((h) => text.includes(`node_modules/${h}/`))));
  }
  return bundled.get(url);
}
console.log('heavy modules loaded:');
let leaked = 0;
for (const c of cases.slice(1)) {
  const trace = join(configDir, 'trace.txt');
  rmSync(trace, { force: true });
  once(
    { ...c, args: ['--import', join(ROOT, 'bench/trace-modules.mjs'), ...c.args] },
    { HUBCTL_TRACE_FILE: trace },
  );
  const urls = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n') : [];
  const loaded = HEAVY.filter((h) =>
    urls.some((u) => u.includes(`/node_modules/${h}/`) || bundledIn(u).has(h)),
  );
  const chunks = new Set(urls.filter((u) => u.includes('/dist/')).map((u) => u.replace(/^.*\/dist\//, '')))
    .size;
  if (loaded.length > 0) leaked++;
  console.log(
    `  ${c.name.padEnd(width)}  ${loaded.length ? loaded.join(', ') : 'none'}  (${chunks} dist modules)`,
  );
}
rmSync(configDir, { recursive: true, force: true });
if (missed)
  console.log(`${missed} goal(s) missed: the machine may be noisy; run again before drawing conclusions.`);
process.exit(leaked || failed ? 1 : 0);
