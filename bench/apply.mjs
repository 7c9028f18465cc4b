#!/usr/bin/env node
// bench/apply.mjs — `hubctl policy apply` of 250 rules across 5 policies (one deny in ten) into an
// empty organization of the hub emulator, with 20 ms added to every request (a distant server).
// Runs the built bin/hubctl.js at --concurrency 1 and 8, alternately, 3 runs each (the organization
// emptied before each), and prints the medians. Goal: concurrency 8 ≥ 4× faster than 1.
//
//   npm run build && node bench/apply.mjs [--runs 3] [--latency 20]

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const RUNS = opt('runs', 3);
const LATENCY = opt('latency', 20);
const GOAL = 4;

const cacheDir = join(root, 'node_modules', '.cache');
mkdirSync(cacheDir, { recursive: true });
const out = mkdtempSync(join(cacheDir, 'hubctl-bench-apply-'));
let emulator;
try {
  await build({
    entryPoints: { emulator: join(root, 'test/support/hub-emulator.ts') },
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

const work = mkdtempSync(join(tmpdir(), 'hubctl-bench-apply-'));
const files = join(work, 'policies');
mkdirSync(files);
for (let p = 0; p < 5; p++) {
  const rules = [];
  for (let r = 0; r < 50; r++) {
    const decision = r % 10 === 0 ? 'deny' : 'allow';
    rules.push(
      `  - {name: r${r}, actions: [connect:tcp], decision: ${decision}, resources: [h${r}.p${p}.example.com]}`,
    );
  }
  writeFileSync(join(files, `p${p}.yaml`), `name: p${p}\nrules:\n${rules.join('\n')}\n`);
}

const hub = await emulator.startHubEmulator({ latencyMs: LATENCY });
const env = {
  PATH: process.env.PATH ?? '',
  HOME: work,
  HUBCTL_CONFIG_DIR: work,
  HUBCTL_BASE_URL: hub.url,
  HUBCTL_USERNAME: 'alice',
  HUBCTL_TOKEN: 'alice-password',
  HUBCTL_ORG: 'acme',
};

function apply(concurrency) {
  hub.state.policies.length = 0;
  hub.clearRequests();
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const argv = [
      join(root, 'bin/hubctl.js'),
      'policy',
      'apply',
      '-f',
      files,
      '--yes',
      '--concurrency',
      String(concurrency),
    ];
    execFile(process.execPath, argv, { env }, (err, _stdout, stderr) => {
      if (err) return reject(new Error(`apply --concurrency ${concurrency} failed: ${stderr}`));
      const ms = performance.now() - start;
      const rules = hub.state.policies.reduce((n, p) => n + p.rules.length, 0);
      if (rules !== 250) return reject(new Error(`expected 250 rules, found ${rules}`));
      resolve({ ms, requests: hub.requests.length });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = { 1: [], 8: [] };
let requests = 0;
try {
  for (let i = 0; i < RUNS; i++) {
    for (const c of [1, 8]) {
      const r = await apply(c);
      times[c].push(r.ms);
      requests = r.requests;
    }
  }
} finally {
  await hub.close();
  rmSync(work, { recursive: true, force: true });
}
const one = median(times[1]);
const eight = median(times[8]);
const ratio = one / eight;
console.log(
  `policy apply: 250 rules in 5 policies, ${requests} requests, +${LATENCY} ms each, ${RUNS} runs each (median)`,
);
console.log(
  `  --concurrency 1: ${(one / 1000).toFixed(2)} s   [${times[1].map((t) => (t / 1000).toFixed(2)).join(' ')}]`,
);
console.log(
  `  --concurrency 8: ${(eight / 1000).toFixed(2)} s   [${times[8].map((t) => (t / 1000).toFixed(2)).join(' ')}]`,
);
console.log(`  speed-up ${ratio.toFixed(2)}× (goal ≥ ${GOAL}×): ${ratio >= GOAL ? 'met' : 'NOT MET'}`);
process.exitCode = ratio >= GOAL ? 0 : 1;
