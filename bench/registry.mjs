#!/usr/bin/env node
// bench/registry.mjs — hubctl image push/pull against skopeo copy, on the same local registry.
//
// Builds an image of N incompressible layers (default 4 × 128 MiB = 512 MiB, gzip level 0), starts
// Debian's docker-registry on loopback with token auth (a small ES256 token service in this
// process), then times, alternately, 5 runs each of:
//   push: hubctl image push oci:DIR REF     vs  skopeo copy oci:DIR:tag docker://REF
//   pull: hubctl image pull REF oci:OUT     vs  skopeo copy docker://REF oci:OUT:tag
//   repull: the same pulls into a layout that already holds every blob (hubctl verifies each one
//   before it skips it; skopeo trusts the file): what local trust costs.
//   copy: hubctl image copy REF REF2  vs  skopeo copy docker://REF docker://REF2, from the first
//   registry to a second one started empty for every run (so nothing is mounted or skipped).
//   all-tags: 20 tags sharing the layers (each its own config), hubctl image copy --all-tags vs
//   skopeo sync, into an empty second registry; timed once each (reported, no goal).
// The registry's data is wiped before every push (and skopeo's blob-info cache removed), so every
// push uploads every byte. Every timed run starts after `sync`, so that the dirty pages one run
// leaves are not written back during the next. Wall time and peak RSS come from /usr/bin/time.
// Prints medians and the hubctl/skopeo ratios against the goals of issue 12: push ≤ 0.65×,
// pull ≤ 0.85×, copy ≤ 0.80× skopeo's wall time, hubctl peak RSS ≤ 120 MB whatever the size.
// With the defaults the whole bench takes about 45 s on a 2-core VM (it prints its total).
//
//   npm run build && node bench/registry.mjs [--layers 4] [--layer-size 128M] [--runs 5] [--keep DIR]
//   BENCH_PULL_ARGS="--concurrency 2" adds flags to hubctl's pull (to compare settings).
//   --only push,pull,repull,copy,all-tags runs some parts only (to profile one of them);
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" adds flags to node for every hubctl run;
//   BENCH_DEBUG=1 runs hubctl with --debug (its request trace on stderr).
//   BENCH_BASE=/other/checkout/bin/hubctl.js times that build too, as "base", alternating with the
//   others in push, pull and copy (an A/B of a change under the same load).

import { execFileSync, spawn } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { startTokenService } from './token-service.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
const args = parseArgs(process.argv.slice(2));
const USER = 'bench';
const PASS = 'bench-password';
const SERVICE = 'bench-registry';
const ISSUER = 'bench-issuer';
const GOALS = { push: 0.65, pull: 0.85, copy: 0.8 };
const RSS_GOAL_MB = 120;
const TAGS = 20;

function parseArgs(argv) {
  const a = { layers: 4, layerSize: 128 * MiB, runs: 5, keep: undefined, only: undefined };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[++i];
    if (k === '--layers') a.layers = Number(v);
    else if (k === '--layer-size') a.layerSize = parseSize(v);
    else if (k === '--runs') a.runs = Number(v);
    else if (k === '--keep') a.keep = v;
    else if (k === '--only') a.only = new Set(v.split(','));
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

function parseSize(s) {
  const m = /^(\d+)([KMG]?)$/i.exec(s);
  if (!m) throw new Error(`bad size ${s}`);
  return Number(m[1]) * { '': 1, K: 1024, M: MiB, G: 1024 * MiB }[m[2].toUpperCase()];
}

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- the image --------------------------------------------------------------------------------

function tarHeader(name, size) {
  const h = Buffer.alloc(512, 0);
  const oct = (n, len) => `${n.toString(8).padStart(len - 1, '0')}\0`;
  h.write(name, 0, 100);
  h.write(oct(0o644, 8), 100);
  h.write(oct(0, 8), 108);
  h.write(oct(0, 8), 116);
  h.write(oct(size, 12), 124);
  h.write(oct(1_700_000_000, 12), 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

/** A tar of one file of pseudo-random bytes (AES-CTR keystream: fast and incompressible). */
function randomTar(size, key) {
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(MiB);
  let left = size;
  let stage = 0;
  return new Readable({
    read() {
      if (stage === 0) {
        stage = 1;
        this.push(tarHeader('data.bin', size));
      } else if (left > 0) {
        const n = Math.min(MiB, left);
        left -= n;
        this.push(cipher.update(zeros.subarray(0, n)));
      } else if (stage === 1) {
        stage = 2;
        this.push(Buffer.alloc(((512 - (size % 512)) % 512) + 1024));
      } else this.push(null);
    },
  });
}

async function makeImage(dir) {
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  const put = (bytes) => {
    const hex = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(dir, 'blobs', 'sha256', hex), bytes);
    return { digest: `sha256:${hex}`, size: bytes.length };
  };
  const layers = [];
  const diffIds = [];
  for (let i = 0; i < args.layers; i++) {
    const tmp = join(dir, 'blobs', 'sha256', `.tmp${i}`);
    const diff = createHash('sha256');
    const blob = createHash('sha256');
    let size = 0;
    await pipeline(
      randomTar(args.layerSize, randomBytes(16)),
      new Transform({
        transform(c, _e, cb) {
          diff.update(c);
          cb(null, c);
        },
      }),
      createGzip({ level: 0, chunkSize: MiB }),
      new Transform({
        transform(c, _e, cb) {
          blob.update(c);
          size += c.length;
          cb(null, c);
        },
      }),
      createWriteStream(tmp),
    );
    const hex = blob.digest('hex');
    renameSync(tmp, join(dir, 'blobs', 'sha256', hex));
    layers.push({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${hex}`, size });
    diffIds.push(`sha256:${diff.digest('hex')}`);
  }
  const config = put(
    Buffer.from(
      JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: diffIds } }),
    ),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
      layers,
    }),
  );
  const m = put(manifest);
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          ...m,
          annotations: { 'org.opencontainers.image.ref.name': 'bench' },
        },
      ],
    }),
  );
  return { digest: m.digest, bytes: layers.reduce((s, l) => s + l.size, 0) };
}

// ---- token service and registry ----------------------------------------------------------------

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

async function startRegistry(work, realm, certPath, name = 'registry') {
  const port = await freePort();
  const data = join(work, `${name}-data`);
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const config = join(work, `${name}.yml`);
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log: {level: error}',
      `storage: {filesystem: {rootdirectory: ${JSON.stringify(data)}}, delete: {enabled: true}}`,
      `http: {addr: "127.0.0.1:${port}", secret: bench-secret}`,
      `auth: {token: {realm: ${JSON.stringify(realm)}, service: ${SERVICE}, issuer: ${ISSUER}, rootcertbundle: ${JSON.stringify(certPath)}}}`,
      '',
    ].join('\n'),
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('REGISTRY_')));
  const child = spawn('docker-registry', ['serve', config], { env, stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/v2/`);
      if (r.status === 401) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    host: `127.0.0.1:${port}`,
    /** CPU seconds (user+sys) the registry has used so far. */
    cpu() {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

// ---- timing ------------------------------------------------------------------------------------

/** Flushes dirty pages to disk, so that one run's writeback is not timed in the next. */
async function sync() {
  const child = spawn('sync', [], { stdio: 'ignore' });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`sync exited with ${code}`);
}

/** Runs a command under /usr/bin/time (asynchronously: the token service lives in this process). */
async function timed(cmd, argv, env) {
  await sync();
  if (cmd === process.execPath) {
    argv = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...argv];
    // BENCH_DEBUG=1: hubctl's --debug trace (every request) on stderr instead of --quiet.
    if (process.env.BENCH_DEBUG) argv = argv.map((a) => (a === '--quiet' ? '--debug' : a));
  }
  const out = join(work, `time-${randomBytes(4).toString('hex')}.txt`);
  const child = spawn('/usr/bin/time', ['-f', '%e %M %U %S', '-o', out, cmd, ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited with ${code}`);
  const [wall, rssKb, user, sys] = readFileSync(out, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  rmSync(out);
  return { wall, rssMb: rssKb / 1024, cpu: user + sys, user, sys };
}

function clearSkopeoCache() {
  for (const p of [
    '/var/lib/containers/cache/blob-info-cache-v1.boltdb',
    join(process.env.HOME ?? '/root', '.local/share/containers/cache/blob-info-cache-v1.boltdb'),
  ]) {
    rmSync(p, { force: true });
  }
}

// ---- main --------------------------------------------------------------------------------------

const benchStart = Date.now();
const work = args.keep ?? mkdtempSync(join(tmpdir(), 'hubctl-bench-'));
mkdirSync(work, { recursive: true });
let registry;
let tokenServer;
try {
  log(`work dir ${work}`);
  // The CLI as users run it: bin/hubctl.js over dist/ (`node scripts/build.mjs` first).
  // BENCH_HUBCTL=/other/checkout/bin/hubctl.js times another build (an A/B of a change).
  const hubctl = process.env.BENCH_HUBCTL ?? join(repoRoot, 'bin', 'hubctl.js');
  // BENCH_BASE=/other/checkout/bin/hubctl.js adds that build as a third tool, "base", in the same
  // alternation as hubctl and skopeo (push, pull, copy): an A/B of a change under the same load.
  const base = process.env.BENCH_BASE;
  const bin = (tool) => (tool === 'base' ? base : hubctl);
  const toolResults = () => ({ hubctl: [], skopeo: [], ...(base ? { base: [] } : {}) });
  /** The tools of run i, in an order that rotates from run to run. */
  const order = (i) => {
    const tools = Object.keys(toolResults());
    return tools.map((_, k) => tools[(i + k) % tools.length]);
  };
  if (!existsSync(join(repoRoot, 'dist', 'cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first');

  tokenServer = await startTokenService({
    dir: work,
    user: USER,
    password: PASS,
    service: SERVICE,
    issuer: ISSUER,
    anonymous: true,
  });
  const realm = `http://${tokenServer.host}/token`;

  const imageDir = join(work, 'image');
  log(`making ${args.layers} × ${args.layerSize / MiB} MiB layers …`);
  const image = existsSync(join(imageDir, 'index.json'))
    ? { digest: JSON.parse(readFileSync(join(imageDir, 'index.json'), 'utf8')).manifests[0].digest, bytes: 0 }
    : await makeImage(imageDir);
  const totalMiB = (args.layers * args.layerSize) / MiB;

  const dockerDir = join(work, 'docker');
  mkdirSync(dockerDir, { recursive: true });
  const hubEnv = (run) => ({
    HUBCTL_CONFIG_DIR: join(work, `hubctl-config-${run}`),
    DOCKER_CONFIG: dockerDir,
    HUBCTL_PLATFORM: 'linux/amd64',
  });
  const creds = `${USER}:${PASS}`;

  const runs = (op) => (!args.only || args.only.has(op) ? args.runs : 0);
  const results = { push: toolResults(), pull: toolResults() };
  for (let i = 0; i < runs('push'); i++) {
    for (const tool of order(i)) {
      if (registry) await registry.stop();
      registry = await startRegistry(work, realm, join(work, 'token.crt'));
      writeFileSync(
        join(dockerDir, 'config.json'),
        JSON.stringify({ auths: { [registry.host]: { auth: Buffer.from(creds).toString('base64') } } }),
      );
      clearSkopeoCache();
      const ref = `${registry.host}/bench/app:${tool}${i}`;
      const before = registry.cpu();
      const r = await (tool !== 'skopeo'
        ? timed(
            process.execPath,
            [bin(tool), '--quiet', 'image', 'push', `oci:${imageDir}:bench`, ref],
            hubEnv(`push-${i}`),
          )
        : timed(
            'skopeo',
            [
              'copy',
              '-q',
              '--dest-tls-verify=false',
              '--dest-creds',
              creds,
              `oci:${imageDir}:bench`,
              `docker://${ref}`,
            ],
            {},
          ));
      results.push[tool].push(r);
      log(
        `push ${tool} run ${i + 1}: ${r.wall.toFixed(2)} s, ${r.cpu.toFixed(2)} s cpu, ${r.rssMb.toFixed(0)} MB; the registry ${(registry.cpu() - before).toFixed(2)} s cpu`,
      );
    }
  }
  // Pulls, from one registry holding the image.
  registry ??= await startRegistry(work, realm, join(work, 'token.crt'));
  writeFileSync(
    join(dockerDir, 'config.json'),
    JSON.stringify({ auths: { [registry.host]: { auth: Buffer.from(creds).toString('base64') } } }),
  );
  const src = `${registry.host}/bench/app:pull`;
  await timed(
    process.execPath,
    [hubctl, '--quiet', 'image', 'push', `oci:${imageDir}:bench`, src],
    hubEnv('seed'),
  );
  for (let i = 0; i < runs('pull'); i++) {
    for (const tool of order(i)) {
      clearSkopeoCache();
      const out = join(work, `pull-${tool}-${i}`);
      rmSync(out, { recursive: true, force: true });
      mkdirSync(out);
      const r = await (tool !== 'skopeo'
        ? timed(
            process.execPath,
            [
              bin(tool),
              '--quiet',
              'image',
              'pull',
              ...(process.env.BENCH_PULL_ARGS ?? '').split(' ').filter(Boolean),
              src,
              `oci:${out}/img:x`,
            ],
            hubEnv(`pull-${i}`),
          )
        : timed(
            'skopeo',
            [
              'copy',
              '-q',
              '--src-tls-verify=false',
              '--src-creds',
              creds,
              `docker://${src}`,
              `oci:${out}/img:x`,
            ],
            {},
          ));
      results.pull[tool].push(r);
      log(
        `pull ${tool} run ${i + 1}: ${r.wall.toFixed(2)} s, ${r.cpu.toFixed(2)} s cpu, ${r.rssMb.toFixed(0)} MB`,
      );
      const idx = JSON.parse(readFileSync(join(out, 'img', 'index.json'), 'utf8'));
      if (idx.manifests[0].digest !== image.digest)
        throw new Error(`${tool} pulled ${idx.manifests[0].digest}, expected ${image.digest}`);
      rmSync(out, { recursive: true, force: true });
    }
  }

  // Re-pulls into a layout that already holds every blob: hubctl reads each blob through (sha256)
  // before it skips it; skopeo's OCI destination trusts a blob file that exists.
  results.repull = { hubctl: [], skopeo: [] };
  const pullArgv = (tool, out) =>
    tool === 'hubctl'
      ? [process.execPath, [hubctl, '--quiet', 'image', 'pull', src, `oci:${out}/img:x`], hubEnv('repull')]
      : [
          'skopeo',
          [
            'copy',
            '-q',
            '--src-tls-verify=false',
            '--src-creds',
            creds,
            `docker://${src}`,
            `oci:${out}/img:x`,
          ],
          {},
        ];
  for (const tool of runs('repull') ? ['hubctl', 'skopeo'] : []) {
    const out = join(work, `repull-${tool}`);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out);
    await timed(...pullArgv(tool, out));
  }
  for (let i = 0; i < runs('repull'); i++) {
    for (const tool of i % 2 === 0 ? ['hubctl', 'skopeo'] : ['skopeo', 'hubctl']) {
      clearSkopeoCache();
      const r = await timed(...pullArgv(tool, join(work, `repull-${tool}`)));
      results.repull[tool].push(r);
      log(
        `repull ${tool} run ${i + 1}: ${r.wall.toFixed(2)} s, ${r.cpu.toFixed(2)} s cpu, ${r.rssMb.toFixed(0)} MB`,
      );
    }
  }

  // Registry to registry: from the first registry to a second one, empty for every run.
  results.copy = toolResults();
  // skopeo between two registries of the bench: plain HTTP and the bench account at both ends.
  const bothEnds = [
    '--src-tls-verify=false',
    '--dest-tls-verify=false',
    '--src-creds',
    creds,
    '--dest-creds',
    creds,
  ];
  let second;
  const freshSecond = async (creds2) => {
    if (second) await second.stop();
    second = await startRegistry(work, realm, join(work, 'token.crt'), 'second');
    writeFileSync(
      join(dockerDir, 'config.json'),
      JSON.stringify({
        auths: Object.fromEntries(
          [registry.host, second.host].map((h) => [h, { auth: Buffer.from(creds2).toString('base64') }]),
        ),
      }),
    );
    return second;
  };
  try {
    for (let i = 0; i < runs('copy'); i++) {
      for (const tool of order(i)) {
        clearSkopeoCache();
        const dst = `${(await freshSecond(creds)).host}/bench/copy:${tool}${i}`;
        const before = [registry.cpu(), second.cpu()];
        const r = await (tool !== 'skopeo'
          ? timed(process.execPath, [bin(tool), '--quiet', 'image', 'copy', src, dst], hubEnv(`copy-${i}`))
          : timed('skopeo', ['copy', '-q', ...bothEnds, `docker://${src}`, `docker://${dst}`], {}));
        results.copy[tool].push(r);
        log(
          `copy ${tool} run ${i + 1}: ${r.wall.toFixed(2)} s, ${r.cpu.toFixed(2)} s cpu (${r.user.toFixed(2)} user), ${r.rssMb.toFixed(0)} MB; the registries ${(registry.cpu() - before[0]).toFixed(2)} + ${(second.cpu() - before[1]).toFixed(2)} s cpu (source + destination)`,
        );
      }
    }

    // 20 tags sharing the layers, each with its own config (a rebuild with other labels).
    if (runs('all-tags')) {
      const index = JSON.parse(readFileSync(join(imageDir, 'index.json'), 'utf8'));
      const top = JSON.parse(
        readFileSync(join(imageDir, 'blobs', 'sha256', index.manifests[0].digest.slice(7)), 'utf8'),
      );
      const baseConfig = JSON.parse(
        readFileSync(join(imageDir, 'blobs', 'sha256', top.config.digest.slice(7)), 'utf8'),
      );
      const tagsDir = join(work, 'tags-image');
      rmSync(tagsDir, { recursive: true, force: true });
      execFileSync('cp', ['-al', imageDir, tagsDir]);
      const entries = [];
      for (let t = 0; t < TAGS; t++) {
        const put = (bytes) => {
          const hex = createHash('sha256').update(bytes).digest('hex');
          writeFileSync(join(tagsDir, 'blobs', 'sha256', hex), bytes);
          return { digest: `sha256:${hex}`, size: bytes.length };
        };
        const config = put(
          Buffer.from(JSON.stringify({ ...baseConfig, config: { Labels: { build: String(t) } } })),
        );
        const manifest = put(Buffer.from(JSON.stringify({ ...top, config: { ...top.config, ...config } })));
        entries.push({
          mediaType: top.mediaType,
          ...manifest,
          annotations: { 'org.opencontainers.image.ref.name': `t${t}` },
        });
      }
      // A hard link to the image's index.json: replaced, not written through (--keep reuses the image).
      rmSync(join(tagsDir, 'index.json'));
      writeFileSync(join(tagsDir, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: entries }));
      for (let t = 0; t < TAGS; t++)
        await timed(
          process.execPath,
          [hubctl, '--quiet', 'image', 'push', `oci:${tagsDir}:t${t}`, `${registry.host}/bench/tags:t${t}`],
          hubEnv('tags-seed'),
        );
      results.allTags = {};
      for (const tool of ['hubctl', 'skopeo']) {
        clearSkopeoCache();
        const dst = (await freshSecond(creds)).host;
        results.allTags[tool] = await (tool === 'hubctl'
          ? timed(
              process.execPath,
              [
                hubctl,
                '--quiet',
                'image',
                'copy',
                '--all-tags',
                `${registry.host}/bench/tags`,
                `${dst}/bench/tags`,
              ],
              hubEnv('all-tags'),
            )
          : timed(
              'skopeo',
              [
                'sync',
                '--src',
                'docker',
                '--dest',
                'docker',
                ...bothEnds,
                `${registry.host}/bench/tags`,
                `${dst}/mirror`,
              ],
              {},
            ));
        log(
          `all-tags ${tool}: ${results.allTags[tool].wall.toFixed(2)} s, ${results.allTags[tool].rssMb.toFixed(0)} MB`,
        );
      }
    }
  } finally {
    await second?.stop();
  }

  const lines = [
    `image: ${args.layers} × ${args.layerSize / MiB} MiB incompressible layers (${totalMiB} MiB), ${args.runs} runs each, medians`,
  ];
  lines.push('op    tool     wall s   MiB/s   peak RSS MB   cpu s (user+sys)');
  const ratios = [];
  for (const op of ['push', 'pull', 'repull', 'copy'].filter(runs)) {
    const m = {};
    for (const tool of Object.keys(results[op])) {
      const wall = median(results[op][tool].map((r) => r.wall));
      const rss = median(results[op][tool].map((r) => r.rssMb));
      const cpu = median(results[op][tool].map((r) => r.cpu));
      m[tool] = { wall, rss };
      lines.push(
        `${op.padEnd(5)} ${tool.padEnd(8)} ${wall.toFixed(2).padStart(6)} ${(totalMiB / wall).toFixed(0).padStart(7)} ${rss.toFixed(0).padStart(10)} ${cpu.toFixed(2).padStart(9)}`,
      );
    }
    if (op === 'repull') {
      ratios.push(
        `repull: hubctl ${m.hubctl.wall.toFixed(2)} s (${totalMiB} MiB read through sha256, ${(totalMiB / m.hubctl.wall).toFixed(0)} MiB/s) vs skopeo ${m.skopeo.wall.toFixed(2)} s (trusts the files): the price of local trust`,
      );
      continue;
    }
    const goal = GOALS[op];
    const ratio = m.hubctl.wall / m.skopeo.wall;
    if (m.base)
      ratios.push(`${op}: the base build ${(m.base.wall / m.skopeo.wall).toFixed(2)}× skopeo (${base})`);
    const ok = ratio <= goal && m.hubctl.rss <= RSS_GOAL_MB;
    ratios.push(
      `${op}: wall ${ratio.toFixed(2)}× skopeo (goal ≤ ${goal.toFixed(2)}), hubctl peak RSS ${m.hubctl.rss.toFixed(0)} MB (goal ≤ ${RSS_GOAL_MB}) ${ok ? 'MET' : 'NOT MET'}`,
    );
  }
  const at = results.allTags;
  if (at)
    ratios.push(
      `copy --all-tags of ${TAGS} tags sharing ${totalMiB} MiB of layers: hubctl ${at.hubctl.wall.toFixed(2)} s (${at.hubctl.rssMb.toFixed(0)} MB), skopeo sync ${at.skopeo.wall.toFixed(2)} s (${at.skopeo.rssMb.toFixed(0)} MB): ${(at.hubctl.wall / at.skopeo.wall).toFixed(2)}×`,
    );
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  ratios.push(
    `conditions: load average ${load} at the end, ${process.env.BENCH_NOTE ?? 'shared 2-core machine'}`,
  );
  process.stdout.write(`${[...lines, ...ratios].join('\n')}\n`);
  log(`the bench took ${((Date.now() - benchStart) / 1000).toFixed(0)} s`);
} finally {
  await registry?.stop();
  await tokenServer?.stop();
  if (!args.keep) rmSync(work, { recursive: true, force: true });
}
