#!/usr/bin/env node
// Benchmark of `policy replay` (issue 23). Run under the bench lock after `npm run build`:
//   flock /tmp/bench.lock node bench/replay.mjs
// Generates audit events (both shapes: the API's nested `payload`, the daemon's flat record; network
// egress, HTTP requests, and events replay skips) and a baseline and a candidate policy, then prints:
//   1. the replay engine alone (lines split in blocks, fields read in place — JSON.parse and
//      readAuditRecord for a line not in the plain form —, decided twice through the decision cache,
//      grouped) on --events N (default 1,000,000) events: events/s, goal ≥ 500,000/s;
//   2. `hubctl policy replay` end to end, the real binary, on --e2e N (default 200,000) events: wall
//      time (goal < 5 s) and peak RSS (goal ≤ 200 MB: the child's VmHWM; getrusage's maxrss would
//      count this process's memory, which a forked child inherits across exec).
// Options: --events N, --e2e N, --runs N (default 3; medians printed).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const EVENTS = Number(opt('events', '1000000'));
const E2E = Number(opt('e2e', '200000'));
const RUNS = Number(opt('runs', '3'));

const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const work = mkdtempSync(join(cacheDir, 'hubctl-replay-bench-'));
let lib;
try {
  writeFileSync(
    join(work, 'entry.ts'),
    `export { Replayer } from '${join(root, 'src/audit/replay.ts')}';\nexport { LineSplitter } from '${join(root, 'src/audit/lines.ts')}';\nexport { compilePolicies, evaluate, parsePolicyDocument } from '${join(root, 'src/policy/index.ts')}';\n`,
  );
  await build({
    entryPoints: { lib: join(work, 'entry.ts') },
    outdir: work,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    external: ['yaml'],
    logLevel: 'warning',
  });
  lib = await import(pathToFileURL(join(work, 'lib.mjs')).href);
} catch (err) {
  rmSync(work, { recursive: true, force: true });
  throw err;
}

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

// 2,000 destinations over 200 parent domains; users and agents from small pools.
const PARENTS = Array.from({ length: 200 }, (_, i) => `svc${i}.example${i % 20}.com`);
const HOSTS = Array.from({ length: 2000 }, (_, i) => `h${i % 10}.${PARENTS[i % 200]}`);
const USERS = Array.from({ length: 300 }, (_, i) => `user${i}@example.com`);
const AGENTS = ['claude', 'codex', 'gemini', 'cursor'];

const baselineText = `name: egress
rules:
  - {name: parents, actions: [connect:tcp], decision: allow, resources: [${PARENTS.slice(0, 150)
    .map((p) => `"**.${p}"`)
    .join(', ')}]}
  - {name: metadata, actions: [connect:tcp], decision: deny, resources: [169.254.169.254/32]}
`;
const candidateText = `name: egress
rules:
  - {name: parents, actions: [connect:tcp], decision: allow, resources: [${PARENTS.slice(20, 180)
    .map((p) => `"**.${p}"`)
    .join(', ')}]}
  - {name: metadata, actions: [connect:tcp], decision: deny, resources: [169.254.169.254/32]}
  - {name: no-delete, actions: [request:delete], decision: deny, http_resources: [{host: "**.${PARENTS[30]}", path: "/**"}]}
`;

// The recorded decision is the baseline's, as an audit log records what the policy decided, except
// for 1% (drift); each event's request is decided once here, through a cache, like replay does.
let recordedOf = () => 'AUDIT_DECISION_ALLOW';

function events(n, seed) {
  const r = rng(seed);
  const lines = [];
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  for (let i = 0; i < n; i++) {
    const host = HOSTS[Math.floor(r() * HOSTS.length)];
    const user = USERS[Math.floor(r() * USERS.length)];
    const agent = AGENTS[Math.floor(r() * AGENTS.length)];
    const time = new Date(t0 + i * 1000).toISOString();
    const kind = r();
    const api = r() < 0.5;
    const drift = r() < 0.01;
    let payload;
    let type;
    if (kind < 0.6) {
      type = 'network_egress';
      payload = { resource_id: `${host}:443`, agent, network_egress: { protocol: 'tcp' } };
    } else if (kind < 0.9) {
      type = 'http_request';
      const method = r() < 0.8 ? 'HTTP_METHOD_GET' : 'HTTP_METHOD_DELETE';
      payload = {
        resource_id: `${host}:443`,
        agent,
        http_request: { method, host, port: '443', path: `/v1/items/${i % 50}` },
      };
    } else {
      type = kind < 0.95 ? 'session' : 'tool_invocation';
      payload = { resource_id: 'x', agent };
    }
    const category = type === 'session' ? 'AUDIT_CATEGORY_MANAGEMENT' : 'AUDIT_CATEGORY_EVALUATION';
    let decision = recordedOf(type, payload);
    if (drift)
      decision = decision === 'AUDIT_DECISION_ALLOW' ? 'AUDIT_DECISION_DENY' : 'AUDIT_DECISION_ALLOW';
    const rec = api
      ? {
          audit_event_id: `0b9f3f0e-0000-4000-8000-${String(i).padStart(12, '0')}`,
          org_id: '0b9f3f0e-0000-4000-8000-000000000001',
          event_type: type,
          category,
          decision,
          action_type: type,
          enforcement_mode: 'enforce',
          audit_session_id: `s${i % 1000}`,
          username: user,
          created_at: time,
          ingested_at: time,
          payload,
        }
      : {
          timestamp: time,
          schema_version: '1',
          category,
          decision,
          action_type: type,
          user_email: user,
          org_name: 'acme',
          os: 'linux',
          app_version: '1.2.3',
          client_name: 'sandboxes',
          hostname: `dev${i % 40}`,
          ...payload,
        };
    lines.push(JSON.stringify(rec));
  }
  return `${lines.join('\n')}\n`;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const base = await lib.parsePolicyDocument(baselineText, 'baseline.yaml');
  const cand = await lib.parsePolicyDocument(candidateText, 'candidate.yaml');
  const baseSet = lib.compilePolicies(base);
  const seen = new Map();
  recordedOf = (type, payload) => {
    let action;
    let dest;
    if (type === 'network_egress') {
      action = 'connect:tcp';
      dest = payload.resource_id;
    } else if (type === 'http_request') {
      const h = payload.http_request;
      action = h.method === 'HTTP_METHOD_GET' ? 'request:get' : 'request:delete';
      dest = `https://${h.host}:${h.port}${h.path}`;
    } else return 'AUDIT_DECISION_ALLOW';
    const key = `${action} ${dest}`;
    let d = seen.get(key);
    if (d === undefined) {
      d =
        lib.evaluate(baseSet, action, dest).decision === 'allow'
          ? 'AUDIT_DECISION_ALLOW'
          : 'AUDIT_DECISION_DENY';
      seen.set(key, d);
    }
    return d;
  };
  const text = events(EVENTS, 1);
  const bytes = Buffer.from(text);
  console.log(
    `replay engine: ${EVENTS.toLocaleString('en')} events, ${(bytes.length / 1048576).toFixed(0)} MiB`,
  );
  const rates = [];
  const wallRates = [];
  let report;
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    const cpu0 = process.cpuUsage();
    const replayer = new lib.Replayer(lib.compilePolicies(base), lib.compilePolicies(cand));
    const splitter = new lib.LineSplitter(
      {
        line: (t, n) => replayer.line(t, 'bench', n),
        lineIn: (t, s, e, n, ascii) => replayer.lineIn(t, s, e, 'bench', n, ascii),
        tooLong: () => replayer.tooLong(),
      },
      1 << 20,
    );
    for (let o = 0; o < bytes.length; o += 1 << 20)
      splitter.push(bytes.subarray(o, Math.min(bytes.length, o + (1 << 20))));
    splitter.end();
    report = replayer.report();
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    rates.push(EVENTS / cpuS);
    wallRates.push(EVENTS / wall);
    console.log(
      `  run ${run + 1}: ${wall.toFixed(2)} s wall, ${cpuS.toFixed(2)} CPU s: ${Math.round(EVENTS / wall).toLocaleString('en')} events/s of wall time, ${Math.round(EVENTS / cpuS).toLocaleString('en')} per CPU second`,
    );
  }
  console.log(
    `  replayed ${report.replayed}, skipped ${JSON.stringify(report.skipped)}, ${report.changes.length} changed requests, drift ${report.drift.count}`,
  );
  // the floor: splitting the lines and JSON.parse of each, nothing else
  const floors = [];
  for (let run = 0; run < RUNS; run++) {
    const cpu0 = process.cpuUsage();
    let n = 0;
    const splitter = new lib.LineSplitter(
      {
        line: (t) => {
          if (JSON.parse(t) !== null) n++;
        },
        tooLong: () => undefined,
      },
      1 << 20,
    );
    for (let o = 0; o < bytes.length; o += 1 << 20)
      splitter.push(bytes.subarray(o, Math.min(bytes.length, o + (1 << 20))));
    splitter.end();
    const cpu = process.cpuUsage(cpu0);
    floors.push(n / ((cpu.user + cpu.system) / 1e6));
  }
  console.log(
    `  split + JSON.parse alone: ${Math.round(median(floors)).toLocaleString('en')} lines per CPU second (replay does ${((median(rates) / median(floors)) * 100).toFixed(0)}% of that)`,
  );
  const rate = median(rates);
  console.log(
    `  median ${Math.round(median(wallRates)).toLocaleString('en')} events/s of wall time, ${Math.round(rate).toLocaleString('en')} per CPU second — goal ≥ 500,000/s (judged per CPU second: the machine is shared): ${rate >= 500000 ? 'met' : 'NOT met'}`,
  );

  if (E2E === 0) {
    rmSync(work, { recursive: true, force: true });
    process.exit(0);
  }
  const dir = mkdtempSync(join(work, 'e2e-'));
  const evFile = join(dir, 'events.ndjson');
  writeFileSync(evFile, events(E2E, 2));
  writeFileSync(join(dir, 'baseline.yaml'), baselineText);
  writeFileSync(join(dir, 'candidate.yaml'), candidateText);
  const walls = [];
  const rsss = [];
  const cpus = [];
  const runner = `require(${JSON.stringify(join(root, 'dist/cli.js'))}).main(process.argv.slice(1)).then((c) => { const u = process.resourceUsage(); const hwm = /VmHWM:\\s+(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]; process.stderr.write('\\nMAXRSS ' + hwm + ' CPU ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); process.exitCode = c; });`;
  console.log(`hubctl policy replay, end to end: ${E2E.toLocaleString('en')} events`);
  for (let run = 0; run < RUNS; run++) {
    const started = process.hrtime.bigint();
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        runner,
        'policy',
        'replay',
        evFile,
        '-f',
        join(dir, 'candidate.yaml'),
        '--baseline-file',
        join(dir, 'baseline.yaml'),
        '--json',
      ],
      {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        env: { PATH: process.env.PATH, HOME: dir, HUBCTL_CONFIG_DIR: dir, NO_COLOR: '1' },
      },
    );
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    if (r.status !== 10 && r.status !== 0)
      throw new Error(`hubctl exited ${r.status}: ${r.stderr.slice(0, 500)}`);
    const rss = Number(/MAXRSS (\d+)/.exec(r.stderr)?.[1] ?? 0) / 1024;
    const cpuS = Number(/ CPU (\d+)/.exec(r.stderr)?.[1] ?? 0) / 1e6;
    cpus.push(cpuS);
    walls.push(wall);
    rsss.push(rss);
    console.log(
      `  run ${run + 1}: ${wall.toFixed(2)} s wall, ${cpuS.toFixed(2)} CPU s, peak RSS ${rss.toFixed(0)} MB, exit ${r.status}`,
    );
  }
  const w = median(walls);
  const m = Math.max(...rsss);
  const c = median(cpus);
  console.log(
    `  median ${w.toFixed(2)} s wall, ${c.toFixed(2)} CPU s — goal < 5 s: ${w < 5 ? 'met' : 'NOT met'} (wall), ${c < 5 ? 'met' : 'NOT met'} (CPU); peak RSS ${m.toFixed(0)} MB — goal ≤ 200 MB: ${m <= 200 ? 'met' : 'NOT met'}`,
  );
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
