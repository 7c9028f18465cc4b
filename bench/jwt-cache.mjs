#!/usr/bin/env node
// The JWT cache (issue 15): wall time of 20 `hubctl policy list` runs in a row against the hub
// emulator on 127.0.0.1, with the cache and without it (HUBCTL_JWT_CACHE=off, the baseline of the
// same run), and the token exchanges each made.
//   node bench/jwt-cache.mjs [--rounds 3] [--exchange-ms 0]
// --exchange-ms delays each exchange answer, as a distant, rate-limited endpoint would. Rounds
// alternate the two modes so drift of a busy machine hits both alike. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin/hubctl.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('--rounds', 3);
const EXCHANGE_MS = arg('--exchange-ms', 0);
const RUNS = 20;

if (!existsSync(join(ROOT, 'dist/cli.js'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(2);
}

// The emulator is TypeScript: bundle it once into a temporary module.
const work = mkdtempSync(join(tmpdir(), 'hubctl-bench-jwt-'));
const emulatorJs = join(work, 'hub-emulator.mjs');
await build({
  entryPoints: [join(ROOT, 'test/support/hub-emulator.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: emulatorJs,
  logLevel: 'error',
});
const { startHubEmulator } = await import(pathToFileURL(emulatorJs).href);
const hub = await startHubEmulator();
if (EXCHANGE_MS > 0)
  hub.inject({ method: 'POST', path: '/v2/auth/token', times: 1e6 }, [{ delayMs: EXCHANGE_MS }]);

const configDir = join(work, 'config');
const env = {
  ...process.env,
  HUBCTL_CONFIG_DIR: configDir,
  HUBCTL_BASE_URL: hub.url,
  HUBCTL_ORG: 'acme',
  NO_COLOR: '1',
};

function hubctl(args, extraEnv = {}, stdin = '') {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`hubctl ${args.join(' ')}: ${stderr}`)),
    );
    child.stdin.end(stdin);
  });
}

await hubctl(['auth', 'login', '-u', 'alice', '--password-stdin'], {}, 'alice-password\n');

async function loop(mode) {
  // Each loop starts cold: no JWT stored (a CI job's first command exchanges).
  rmSync(join(configDir, 'jwt-cache.json'), { force: true });
  hub.clearRequests();
  const start = performance.now();
  for (let i = 0; i < RUNS; i++)
    await hubctl(['policy', 'list'], mode === 'off' ? { HUBCTL_JWT_CACHE: 'off' } : {});
  const ms = performance.now() - start;
  return { ms, exchanges: hub.requestsTo('/v2/auth/token', 'POST').length };
}

const results = { cache: [], off: [] };
await loop('cache'); // warm the file cache
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of r % 2 ? ['off', 'cache'] : ['cache', 'off']) results[mode].push(await loop(mode));
}
await hub.close();
rmSync(work, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (name, rs) =>
  `${name.padEnd(28)} ${median(rs.map((x) => x.ms))
    .toFixed(0)
    .padStart(6)} ms   ` +
  `${(median(rs.map((x) => x.ms)) / RUNS).toFixed(0).padStart(4)} ms/run   exchanges ${rs.map((x) => x.exchanges).join('/')}`;
console.log(
  `${RUNS} x hubctl policy list, median of ${ROUNDS} rounds; exchange answer delay ${EXCHANGE_MS} ms`,
);
console.log(line('with the JWT cache', results.cache));
console.log(line('HUBCTL_JWT_CACHE=off', results.off));
const ratio = median(results.cache.map((x) => x.ms)) / median(results.off.map((x) => x.ms));
console.log(`ratio cache/off: ${ratio.toFixed(2)}x`);
