#!/usr/bin/env node
// Benchmark of MCP batch evaluation (issue 24): `hubctl policy eval --batch` on NDJSON MCP requests
// against Cedar policies, end to end (the built CLI: start-up, the Cedar engine's loading, reading,
// deciding, writing), in decisions per second against the goals:
//   - 1,000,000 requests over 1,000 distinct tools: ≥ 50,000/s (a decision cache keyed by the whole
//     request is exact: Cedar is deterministic and the batch reads the time once);
//   - every request distinct (each carries its own arguments): ≥ 5,000/s.
// Needs a build (`npm run build`). Options: --requests N (default 1000000), --distinct N (default
// 50000), --runs N (default 3; the median is reported). Each figure is given twice: by wall time, and
// by the child's CPU time (user + system, read by a preloaded hook at its exit), which a busy shared
// machine disturbs less; the goals are judged on CPU time, as bench/startup.mjs judges its own.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const REQUESTS = Number(opt('requests', '1000000'));
const DISTINCT = Number(opt('distinct', '50000'));
const RUNS = Number(opt('runs', '3'));

// Deterministic pseudo-random numbers (mulberry32), so every run measures the same work.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A policy set of the documentation's shapes: servers allowed by name, a tool name on every server,
// approvals, forbids on arguments (guarded), on destructive tools of some servers, resources by URI.
function policyText() {
  const lines = [];
  for (let s = 0; s < 40; s++) {
    lines.push(`permit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"s${s}");`);
  }
  lines.push(
    'permit (principal, action == MCP::Action::"invokeTool", resource) when { resource.name == "t3" };',
  );
  for (let s = 40; s < 45; s++) {
    lines.push(`@requireApproval("server s${s} needs a yes")`);
    lines.push(`permit (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"s${s}");`);
  }
  lines.push(
    'forbid (principal, action == MCP::Action::"invokeTool", resource)',
    '  when { context has args && context.args has amount && context.args.amount > 900000 };',
  );
  for (let s = 0; s < 10; s++) {
    lines.push(
      `forbid (principal, action == MCP::Action::"invokeTool", resource in MCP::Server::"s${s}") when { resource.destructive && resource.name like "delete*" };`,
    );
  }
  lines.push(
    'permit (principal, action == MCP::Action::"readResource", resource) when { resource.uri like "file:///docs/*" };',
  );
  lines.push(
    'forbid (principal, action, resource) when { context has request_time && context.request_time < datetime("2000-01-01") };',
  );
  return `${lines.join('\n')}\n`;
}

function tools() {
  const out = [];
  for (let s = 0; s < 50; s++) {
    for (let t = 0; t < 20; t++) out.push(`s${s}/${t % 5 === 4 ? 'delete' : 't'}${t}`);
  }
  return out; // 1,000 distinct tools
}

function repeatedLines(n) {
  const r = rng(24);
  const list = tools().map((d) => `{"action":"mcp:invokeTool","destination":"${d}"}\n`);
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(list[Math.floor(r() * list.length)]);
  return parts.join('');
}

function distinctLines(n) {
  const r = rng(42);
  const list = tools();
  const parts = [];
  for (let i = 0; i < n; i++) {
    const d = list[Math.floor(r() * list.length)];
    parts.push(`{"action":"mcp:invokeTool","destination":"${d}","args":{"amount":${i},"note":"n${i}"}}\n`);
  }
  return parts.join('');
}

const dir = mkdtempSync(join(tmpdir(), 'hubctl-bench-mcp-'));
try {
  const policy = join(dir, 'mcp.cedar');
  writeFileSync(policy, policyText());
  const bin = join(root, 'bin/hubctl.js');
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    NO_COLOR: '1',
  };

  // writes the child's CPU time (µs) to fd 3 as it exits
  const hook = join(dir, 'cpu-hook.cjs');
  writeFileSync(
    hook,
    "process.on('exit', () => { const u = process.cpuUsage(); try { require('fs').writeSync(3, String(u.user + u.system)); } catch {} });\n",
  );
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rate = (n, ms) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
  const measure = (label, file, n, goal) => {
    const walls = [];
    const cpus = [];
    for (let run = 0; run < RUNS; run++) {
      const input = openSync(file, 'r');
      const t0 = process.hrtime.bigint();
      const res = spawnSync(
        process.execPath,
        ['--require', hook, bin, 'policy', 'eval', '--batch', '-f', policy],
        {
          stdio: [input, 'ignore', 'pipe', 'pipe'],
          env,
          maxBuffer: 1 << 20,
        },
      );
      walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
      closeSync(input);
      const summary = res.stderr.toString().trim();
      if (res.status !== 0 || !summary.startsWith(`${n} requests`)) {
        throw new Error(`${label}: exit ${res.status}: ${summary.slice(0, 500)}`);
      }
      cpus.push(Number(res.output[3].toString()) / 1000);
    }
    const cpu = median(cpus);
    const ok = n / (cpu / 1000) >= goal;
    console.log(`${label}:`);
    console.log(
      `  CPU  ${rate(n, cpu).padStart(10)} decisions/s (median of ${RUNS}: ${(cpu / 1000).toFixed(2)} s; runs ${cpus.map((t) => (t / 1000).toFixed(2)).join(', ')})  goal ≥ ${goal.toLocaleString('en-US')}/s: ${ok ? 'met' : 'NOT MET'}`,
    );
    console.log(
      `  wall ${rate(n, median(walls)).padStart(10)} decisions/s (median of ${RUNS}: ${(median(walls) / 1000).toFixed(2)} s; runs ${walls.map((t) => (t / 1000).toFixed(2)).join(', ')})`,
    );
    return ok;
  };

  const repeated = join(dir, 'repeated.ndjson');
  writeFileSync(repeated, repeatedLines(REQUESTS));
  const distinct = join(dir, 'distinct.ndjson');
  writeFileSync(distinct, distinctLines(DISTINCT));
  console.log(
    `node ${process.version}; policy: ${policyText().split('\n').length - 1} lines of Cedar; end to end, the built CLI`,
  );
  const a = measure(
    `${REQUESTS.toLocaleString('en-US')} requests over 1,000 distinct tools`,
    repeated,
    REQUESTS,
    50_000,
  );
  const b = measure(
    `${DISTINCT.toLocaleString('en-US')} requests, every one distinct`,
    distinct,
    DISTINCT,
    5_000,
  );
  process.exitCode = a && b ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
