#!/usr/bin/env node
// bench/supply-chain.mjs — issue 27's figures, against Debian's docker-registry on loopback (no
// auth, so that only the clients and the registries are measured):
//   copy:      hubctl image copy vs skopeo copy of the same image between two registries, each run
//              into a repository of its own; the client's own CPU (user + sys, from /usr/bin/time)
//              and wall time. Goal: hubctl's CPU ≤ 0.5× skopeo's.
//              Also a copy of a one-blob image of 4 KiB by each tool: its CPU is the tool's fixed
//              cost (start-up, requests), and the rest is what the 128 MiB cost (the data path).
//              --base DIR copies with that build too (DIR/bin/hubctl.js), alternating with the others.
//   sync:      hubctl image sync of 100 small tags (one shared layer, a config each) into an empty
//              repository, --concurrency 8 against --concurrency 1. Goal: ≥ 4× faster. The two
//              registries' CPU during each run is read from /proc: with the client's, the CPU a
//              sync takes, which no concurrency can spread over more than the machine's cores.
//              Then the same through a delaying TCP proxy (bench/delay-proxy.mjs, a child process
//              whose CPU is printed apart): --rtt MS round trips to both registries and their
//              token service (default 20; 0 skips it), with token auth as distant registries
//              have it, which is what concurrency is for. The loopback figure is the goal's.
//              --base DIR times another build (DIR/bin/hubctl.js) too, alternating with this one.
//   referrers: hubctl image copy --referrers of an image with 3 referrers (an SBOM, a signature,
//              a signature of the SBOM) against the same copy without them. Goal: ≤ 1.2×.
// Runs alternate between the two sides; medians are printed. Figures are noisy on a shared
// machine: run it alone (`flock /tmp/bench.lock node bench/supply-chain.mjs`).
//
//   npm run build && node bench/supply-chain.mjs [--runs 5] [--layers 4] [--layer-size 32M] [--only copy,sync,referrers]
//     [--rtt 20] [--base DIR]
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds flags to node for every hubctl run.

import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTokenService } from './token-service.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(repoRoot, 'bin/hubctl.js');
const MiB = 1024 * 1024;
const GOALS = { copyCpu: 0.5, syncSpeedup: 4, referrers: 1.2 };

const args = (() => {
  const a = { runs: 5, layers: 4, layerSize: 32 * MiB, only: undefined, rtt: 20, base: undefined };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[++i];
    if (k === '--runs') a.runs = Number(v);
    else if (k === '--layers') a.layers = Number(v);
    else if (k === '--layer-size')
      a.layerSize = Number(/^(\d+)M$/i.exec(v)?.[1] ?? v) * (/M$/i.test(v) ? MiB : 1);
    else if (k === '--only') a.only = new Set(v.split(','));
    else if (k === '--rtt') a.rtt = Number(v);
    else if (k === '--base') a.base = v;
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
})();
const runs = (part) => !args.only || args.only.has(part);

const work = mkdtempSync(join(tmpdir(), 'hubctl-bench-supply-'));
const sha = (b) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * A registry on loopback. `dataOf` serves the storage of the registry of that name (a second
 * process on the same files); `auth` asks for tokens from `auth.realm`, signed by `auth.cert`'s key.
 */
async function startRegistry(name, { dataOf, auth } = {}) {
  const dir = join(work, name);
  const data = join(work, dataOf ?? name, 'data');
  mkdirSync(dir, { recursive: true });
  mkdirSync(data, { recursive: true });
  const port = await freePort();
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${JSON.stringify(data)}`,
      '  maintenance:',
      '    uploadpurging:',
      '      enabled: false',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      ...(auth
        ? [
            'auth:',
            '  token:',
            `    realm: ${JSON.stringify(auth.realm)}`,
            `    service: ${TOKEN.service}`,
            `    issuer: ${TOKEN.issuer}`,
            `    rootcertbundle: ${JSON.stringify(auth.cert)}`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('REGISTRY_')));
  const child = spawn('docker-registry', ['serve', config], { env, stdio: 'ignore' });
  for (let i = 0; i < 300; i++) {
    try {
      if ([200, 401].includes((await fetch(`http://127.0.0.1:${port}/v2/`)).status)) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    /** Seconds of CPU (user + sys) the registry has used; NaN without /proc. */
    cpu: () => cpuOf(child.pid),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const TOKEN = {
  user: 'bench',
  password: 'bench-password',
  service: 'bench-registry',
  issuer: 'bench-issuer',
};

/** The token service for registries with auth (bench/token-service.mjs), its files in `work`. */
function startTokenServer() {
  return startTokenService({ dir: work, ...TOKEN });
}

/** A docker config that gives hubctl the token service's user for `hosts`; its DOCKER_CONFIG. */
function dockerConfigFor(hosts) {
  const dir = join(work, `docker-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const auth = Buffer.from(`${TOKEN.user}:${TOKEN.password}`).toString('base64');
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ auths: Object.fromEntries(hosts.map((h) => [h, { auth }])) }),
  );
  return dir;
}

/** Uploads a blob monolithically (no auth on the bench registries). */
async function putBlob(reg, repo, bytes) {
  const digest = sha(bytes);
  if ((await fetch(`${reg.url}/v2/${repo}/blobs/${digest}`, { method: 'HEAD' })).status === 200)
    return digest;
  const start = await fetch(`${reg.url}/v2/${repo}/blobs/uploads/`, { method: 'POST' });
  const loc = new URL(start.headers.get('location'), reg.url);
  loc.searchParams.set('digest', digest);
  const put = await fetch(loc, {
    method: 'PUT',
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (put.status !== 201) throw new Error(`blob upload: ${put.status} ${await put.text()}`);
  return digest;
}

async function putManifest(reg, repo, ref, doc) {
  const bytes = Buffer.from(JSON.stringify(doc));
  const r = await fetch(`${reg.url}/v2/${repo}/manifests/${ref}`, {
    method: 'PUT',
    body: bytes,
    headers: { 'content-type': doc.mediaType },
  });
  if (r.status !== 201) throw new Error(`manifest: ${r.status} ${await r.text()}`);
  return { mediaType: doc.mediaType, digest: sha(bytes), size: bytes.length };
}

/** An OCI image: `layers` incompressible gzip-level-0-ish blobs (random bytes, typed as gzip). */
async function pushImage(reg, repo, tag, layers, layerSize, salt = '') {
  const descs = [];
  for (let i = 0; i < layers; i++) {
    const bytes = randomBytes(layerSize);
    descs.push({
      mediaType: 'application/vnd.oci.image.layer.v1.tar',
      digest: await putBlob(reg, repo, bytes),
      size: bytes.length,
    });
  }
  return pushManifestFor(reg, repo, tag, descs, salt);
}

async function pushManifestFor(reg, repo, tag, layers, salt) {
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      rootfs: { type: 'layers', diff_ids: layers.map((l) => l.digest) },
      salt,
    }),
  );
  const cfg = {
    mediaType: 'application/vnd.oci.image.config.v1+json',
    digest: await putBlob(reg, repo, config),
    size: config.length,
  };
  return putManifest(reg, repo, tag, {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: cfg,
    layers,
  });
}

/** skopeo with its blob-info cache removed first: it would otherwise mount what an earlier run copied. */
function timedSkopeo(argv) {
  for (const p of [
    '/var/lib/containers/cache/blob-info-cache-v1.boltdb',
    join(process.env.HOME ?? '/root', '.local/share/containers/cache/blob-info-cache-v1.boltdb'),
  ])
    rmSync(p, { force: true });
  return timed('skopeo', argv);
}

/**
 * Runs a command under /usr/bin/time: wall seconds and the process's own CPU (user + sys). `env`
 * is added to this process's environment; a variable set to undefined there is removed.
 */
async function timed(cmd, argv, env = {}) {
  const out = join(work, `time-${randomBytes(4).toString('hex')}.txt`);
  const merged = { ...process.env, ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  const child = spawn('/usr/bin/time', ['-f', '%e %U %S', '-o', out, cmd, ...argv], {
    env: merged,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited with ${code}`);
  const [wall, user, sys] = readFileSync(out, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  rmSync(out);
  return { wall, cpu: user + sys, user, sys };
}

let envN = 0;
/**
 * A fresh config and state directory: no known blobs, so nothing is mounted from an earlier run.
 * The V8 code cache (XDG_CACHE_HOME) is shared by every run, as a user's is between commands; a
 * warm-up run of each command fills it before anything is timed.
 *
 * Without NODE_EXTRA_CA_CERTS, as in bench/startup.mjs: node 20 reads and parses that bundle (and
 * its own root store) as every process starts, before any JavaScript runs and whether or not TLS is
 * used; the bench's registries speak plain HTTP, and skopeo reads no such variable. On a machine
 * whose environment sets it for every program, that is ~35 ms of CPU per hubctl run that neither
 * hubctl nor a user without the variable pays; the bench prints what it costs here.
 */
const freshEnv = () => {
  const dir = join(work, `env-${++envN}`);
  mkdirSync(dir, { recursive: true });
  return {
    HUBCTL_CONFIG_DIR: dir,
    HOME: dir,
    XDG_CACHE_HOME: join(work, 'code-cache'),
    HUBCTL_PLATFORM: 'linux/amd64',
    NODE_EXTRA_CA_CERTS: undefined,
  };
};
const hubctl = (argv, bin = BIN, env = {}) =>
  timed(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), bin, '--quiet', ...argv],
    { ...freshEnv(), ...env },
  );

/** The delaying proxy (delay-proxy.mjs) in a child process: one port per target (host:port). */
async function startDelayProxy(rtt, targets) {
  const child = spawn(process.execPath, [join(repoRoot, 'bench/delay-proxy.mjs'), String(rtt), ...targets], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ports = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`delay-proxy exited with ${code}`)));
  });
  return {
    hosts: ports.map((p) => `127.0.0.1:${p}`),
    cpu: () => cpuOf(child.pid),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Seconds of CPU (user + sys) process `pid` has used; NaN without /proc. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const started = Date.now();
const a = await startRegistry('a');
const b = await startRegistry('b');
const lines = [];
try {
  if (runs('copy')) {
    await pushImage(a, 'bench/copy', '1', args.layers, args.layerSize);
    await pushImage(a, 'bench/tiny', '1', 1, 4096);
    // With --base DIR, that build's copies too ("base"), alternating with this one's and skopeo's.
    const tools = args.base ? ['hubctl', 'base', 'skopeo'] : ['hubctl', 'skopeo'];
    const res = Object.fromEntries(tools.map((t) => [t, []]));
    const tiny = Object.fromEntries(tools.map((t) => [t, []]));
    const copyWith = (tool, src, dst) =>
      tool === 'hubctl' || tool === 'base'
        ? hubctl(['image', 'copy', src, dst], tool === 'base' ? join(args.base, 'bin/hubctl.js') : BIN)
        : timedSkopeo([
            'copy',
            '-q',
            '--src-tls-verify=false',
            '--dest-tls-verify=false',
            `docker://${src}`,
            `docker://${dst}`,
          ]);
    await copyWith('hubctl', `${a.host}/bench/tiny:1`, `${b.host}/warm-up/copy:1`);
    if (args.base) await copyWith('base', `${a.host}/bench/tiny:1`, `${b.host}/warm-up/copy-base:1`);
    for (let i = 0; i < args.runs; i++) {
      for (const tool of i % 2 ? [...tools].reverse() : tools) {
        const r = await copyWith(tool, `${a.host}/bench/copy:1`, `${b.host}/copy-${tool}/run${i}:1`);
        res[tool].push(r);
        console.error(
          `copy ${tool} run ${i + 1}: ${r.wall.toFixed(2)} s wall, ${r.cpu.toFixed(2)} s cpu (user ${r.user.toFixed(2)}, sys ${r.sys.toFixed(2)})`,
        );
        const t = await copyWith(tool, `${a.host}/bench/tiny:1`, `${b.host}/tiny-${tool}/run${i}:1`);
        tiny[tool].push(t);
        console.error(
          `copy of 4 KiB ${tool} run ${i + 1}: ${t.cpu.toFixed(2)} s cpu (user ${t.user.toFixed(2)}, sys ${t.sys.toFixed(2)})`,
        );
      }
    }
    const cpu = { h: median(res.hubctl.map((r) => r.cpu)), s: median(res.skopeo.map((r) => r.cpu)) };
    const fixed = { h: median(tiny.hubctl.map((r) => r.cpu)), s: median(tiny.skopeo.map((r) => r.cpu)) };
    const wall = { h: median(res.hubctl.map((r) => r.wall)), s: median(res.skopeo.map((r) => r.wall)) };
    const ratio = cpu.h / cpu.s;
    lines.push(
      `copy (${args.layers} × ${args.layerSize / MiB} MiB): client CPU hubctl ${cpu.h.toFixed(2)} s vs skopeo ${cpu.s.toFixed(2)} s = ${ratio.toFixed(2)}× (goal ≤ ${GOALS.copyCpu}×: ${ratio <= GOALS.copyCpu ? 'met' : 'NOT met'}); wall ${wall.h.toFixed(2)} s vs ${wall.s.toFixed(2)} s = ${(wall.h / wall.s).toFixed(2)}×`,
      `  of which fixed (a copy of 4 KiB): hubctl ${fixed.h.toFixed(2)} s, skopeo ${fixed.s.toFixed(2)} s; the ${(args.layers * args.layerSize) / MiB} MiB themselves: hubctl ${(cpu.h - fixed.h).toFixed(2)} s vs skopeo ${(cpu.s - fixed.s).toFixed(2)} s = ${((cpu.h - fixed.h) / (cpu.s - fixed.s)).toFixed(2)}×`,
    );
    if (args.base) {
      const c = median(res.base.map((r) => r.cpu));
      const f = median(tiny.base.map((r) => r.cpu));
      const part = (rs, k) => median(rs.map((r) => r[k]));
      lines.push(
        `  base (${args.base}): client CPU ${c.toFixed(2)} s (user ${part(res.base, 'user').toFixed(2)}, sys ${part(res.base, 'sys').toFixed(2)}), fixed ${f.toFixed(2)} s, the data ${(c - f).toFixed(2)} s; this build: user ${part(res.hubctl, 'user').toFixed(2)}, sys ${part(res.hubctl, 'sys').toFixed(2)}, the data ${(cpu.h - fixed.h).toFixed(2)} s`,
      );
    }
    if (process.env.NODE_EXTRA_CA_CERTS) {
      // What the hubctl runs were spared (freshEnv): a bare node's start with and without it.
      const bare = async (env) => {
        const xs = [];
        for (let i = 0; i < 9; i++) xs.push((await timed(process.execPath, ['-e', '0'], env)).cpu);
        return median(xs);
      };
      const [withIt, without] = [await bare({}), await bare({ NODE_EXTRA_CA_CERTS: undefined })];
      lines.push(
        `  hubctl ran without this environment's NODE_EXTRA_CA_CERTS, which node parses as any process starts: \`node -e 0\` ${withIt.toFixed(2)} s CPU with it, ${without.toFixed(2)} s without`,
      );
    }
  }

  if (runs('sync')) {
    const layer = randomBytes(4096);
    const shared = {
      mediaType: 'application/vnd.oci.image.layer.v1.tar',
      digest: await putBlob(a, 'bench/tags', layer),
      size: layer.length,
    };
    for (let i = 0; i < 100; i++) await pushManifestFor(a, 'bench/tags', `1.0.${i}`, [shared], String(i));
    // The builds timed: this one, and with --base DIR that one too, alternating (an A/B under one load).
    const builds = [{ name: 'this build', bin: BIN }];
    if (args.base) builds.push({ name: `base (${args.base})`, bin: join(args.base, 'bin/hubctl.js') });
    let n = 0;
    /** c=1 against c=8 from `src` to `dst` (hosts), each run into a new repository; medians. */
    const syncFigures = async (label, src, dst, { registriesCpu, extraCpu = () => 0, env = {} }) => {
      const res = new Map(builds.map((b) => [b, { 1: [], 8: [] }]));
      for (const build of builds) {
        const warmUp = join(work, `sync-warm-up-${++n}.yaml`);
        writeFileSync(
          warmUp,
          `sync:\n  - source: ${src}/bench/tags\n    destination: ${dst}/sync-warm-up${n}\n`,
        );
        await hubctl(['image', 'sync', '-f', warmUp, '--concurrency', '8'], build.bin, env);
      }
      for (let i = 0; i < Math.max(3, Math.ceil(args.runs / 2)); i++) {
        for (const build of i % 2 ? [...builds].reverse() : builds) {
          for (const c of i % 2 ? [8, 1] : [1, 8]) {
            const file = join(work, `sync-${++n}.yaml`);
            writeFileSync(file, `sync:\n  - source: ${src}/bench/tags\n    destination: ${dst}/sync-${n}\n`);
            const before = registriesCpu();
            const proxyBefore = extraCpu();
            const r = await hubctl(['image', 'sync', '-f', file, '--concurrency', String(c)], build.bin, env);
            r.registries = registriesCpu() - before;
            r.proxy = extraCpu() - proxyBefore;
            res.get(build)[c].push(r);
            console.error(
              `sync ${label}${builds.length > 1 ? `, ${build.name}` : ''}, --concurrency ${c} run ${i + 1}: ${r.wall.toFixed(2)} s wall, ${r.cpu.toFixed(2)} s cpu, registries ${r.registries.toFixed(2)} s cpu`,
            );
          }
        }
      }
      return builds.map((build) => {
        const runsOf = res.get(build);
        const med = (c, k) => median(runsOf[c].map((r) => r[k]));
        return {
          build,
          w1: med(1, 'wall'),
          w8: med(8, 'wall'),
          one: { client: med(1, 'cpu'), registries: med(1, 'registries'), proxy: med(1, 'proxy') },
          eight: { client: med(8, 'cpu'), registries: med(8, 'registries'), proxy: med(8, 'proxy') },
        };
      });
    };
    const cores = availableParallelism();
    const named = (f) => (builds.length > 1 ? ` [${f.build.name}]` : '');

    // Loopback: the goal's figure.
    for (const f of await syncFigures('loopback', a.host, b.host, {
      registriesCpu: () => a.cpu() + b.cpu(),
    })) {
      const speedup = f.w1 / f.w8;
      const floor = (f.eight.client + f.eight.registries) / cores;
      lines.push(
        `sync of 100 small tags${named(f)}: --concurrency 1 ${f.w1.toFixed(2)} s, --concurrency 8 ${f.w8.toFixed(2)} s = ${speedup.toFixed(2)}× faster (goal ≥ ${GOALS.syncSpeedup}×: ${speedup >= GOALS.syncSpeedup ? 'met' : 'NOT met'})`,
        `  CPU at --concurrency 1: client ${f.one.client.toFixed(2)} s + registries ${f.one.registries.toFixed(2)} s in ${f.w1.toFixed(2)} s of wall time`,
        `  CPU at --concurrency 8: client ${f.eight.client.toFixed(2)} s + registries ${f.eight.registries.toFixed(2)} s over ${cores} cores: no run takes under ${floor.toFixed(2)} s, so ${(f.w1 / floor).toFixed(2)}× is the most this machine allows against this --concurrency 1`,
      );
    }

    // The same through a delaying proxy: what concurrency is for (distant registries).
    // With token auth, as distant registries have it: a second pair of registries on the same
    // storage that ask for tokens, the token service and both registries behind the proxy.
    if (args.rtt > 0) {
      const stops = [];
      try {
        const tokens = await startTokenServer();
        stops.push(tokens.stop);
        const tokenProxy = await startDelayProxy(args.rtt, [tokens.host]);
        stops.push(tokenProxy.stop);
        const auth = { realm: `http://${tokenProxy.hosts[0]}/token`, cert: tokens.cert };
        const a2 = await startRegistry('a-auth', { dataOf: 'a', auth });
        stops.push(a2.stop);
        const b2 = await startRegistry('b-auth', { dataOf: 'b', auth });
        stops.push(b2.stop);
        const proxy = await startDelayProxy(args.rtt, [a2.host, b2.host]);
        stops.push(proxy.stop);
        const figures = await syncFigures(`rtt ${args.rtt} ms`, proxy.hosts[0], proxy.hosts[1], {
          registriesCpu: () => a2.cpu() + b2.cpu(),
          extraCpu: () => proxy.cpu() + tokenProxy.cpu(),
          env: { DOCKER_CONFIG: dockerConfigFor(proxy.hosts) },
        });
        for (const f of figures) {
          const speedup = f.w1 / f.w8;
          lines.push(
            `  with ${args.rtt} ms round trips to both registries and their token service (a delaying TCP proxy; token auth; models distant registries, not the goal's figure)${named(f)}: --concurrency 1 ${f.w1.toFixed(2)} s, --concurrency 8 ${f.w8.toFixed(2)} s = ${speedup.toFixed(2)}× faster (against the goal's ≥ ${GOALS.syncSpeedup}×: ${speedup >= GOALS.syncSpeedup ? 'met' : 'NOT met'}); CPU at --concurrency 8: client ${f.eight.client.toFixed(2)} s, registries ${f.eight.registries.toFixed(2)} s, proxies ${f.eight.proxy.toFixed(2)} s (not counted as the client's)`,
          );
        }
      } finally {
        for (const stop of stops.reverse()) await stop();
      }
    }
  }

  if (runs('referrers')) {
    const subject = await pushImage(a, 'bench/signed', '1', args.layers, args.layerSize);
    const empty = Buffer.from('{}');
    const emptyDesc = {
      mediaType: 'application/vnd.oci.empty.v1+json',
      digest: await putBlob(a, 'bench/signed', empty),
      size: 2,
    };
    const artifact = async (about, type, payload) => {
      const bytes = Buffer.from(payload);
      const layer = {
        mediaType: 'application/octet-stream',
        digest: await putBlob(a, 'bench/signed', bytes),
        size: bytes.length,
      };
      const doc = {
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        artifactType: type,
        config: emptyDesc,
        layers: [layer],
        subject: about,
      };
      const d = await putManifest(a, 'bench/signed', sha(Buffer.from(JSON.stringify(doc))), doc);
      return { ...d, artifactType: type };
    };
    // Three referrers in the fallback tags, as a registry without the API keeps them.
    const sbom = await artifact(
      subject,
      'application/spdx+json',
      JSON.stringify({ spdx: randomBytes(2048).toString('hex') }),
    );
    const sig = await artifact(
      subject,
      'application/vnd.dev.sigstore.bundle.v0.3+json',
      randomBytes(512).toString('hex'),
    );
    const sbomSig = await artifact(
      sbom,
      'application/vnd.dev.sigstore.bundle.v0.3+json',
      randomBytes(512).toString('hex'),
    );
    const index = (ds) => ({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: ds,
    });
    await putManifest(a, 'bench/signed', `sha256-${subject.digest.slice(7)}`, index([sbom, sig]));
    await putManifest(a, 'bench/signed', `sha256-${sbom.digest.slice(7)}`, index([sbomSig]));
    const res = { plain: [], referrers: [] };
    await hubctl(['image', 'copy', '--referrers', `${a.host}/bench/signed:1`, `${b.host}/signed-warm-up:1`]);
    for (let i = 0; i < args.runs; i++) {
      for (const kind of i % 2 ? ['referrers', 'plain'] : ['plain', 'referrers']) {
        const flags = kind === 'referrers' ? ['--referrers'] : [];
        const r = await hubctl([
          'image',
          'copy',
          ...flags,
          `${a.host}/bench/signed:1`,
          `${b.host}/signed-${kind}/run${i}:1`,
        ]);
        res[kind].push(r);
        console.error(
          `copy ${kind === 'referrers' ? '--referrers' : '(plain)'} run ${i + 1}: ${r.wall.toFixed(2)} s wall`,
        );
      }
    }
    const wp = median(res.plain.map((r) => r.wall));
    const wr = median(res.referrers.map((r) => r.wall));
    const ratio = wr / wp;
    lines.push(
      `copy --referrers (3 referrers, fallback tags at both ends): ${wr.toFixed(2)} s vs ${wp.toFixed(2)} s without = ${ratio.toFixed(2)}× (goal ≤ ${GOALS.referrers}×: ${ratio <= GOALS.referrers ? 'met' : 'NOT met'})`,
    );
  }
} finally {
  await a.stop();
  await b.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(lines.join('\n'));
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s; medians; noisy while others use the machine)`);
