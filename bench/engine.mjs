#!/usr/bin/env node
// bench/engine.mjs — hubctl against skopeo between the container engine and a registry, on the
// same podman service and the same local registry (no auth: this measures the engine side).
//   push: hubctl image push docker-daemon:bench:1 REG/h:N  vs  skopeo copy docker-daemon:… docker://…
//   pull: hubctl image pull REG/src:1 docker-daemon:h:N    vs  skopeo copy docker://… docker-daemon:…
// The image (default 4 × 128 MiB incompressible layers) is loaded into podman first. Runs alternate
// between the tools; the registry is wiped and restarted before every push, the pulled image removed
// from the engine after every pull, skopeo's blob-info cache deleted. Goal: ≤ 1.0× skopeo for both.
//
//   npm run build && node bench/engine.mjs [--layers 4] [--layer-size 128M] [--runs 3]

import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MiB = 1 << 20;
const hubctl = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'hubctl.js');
const opt = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const layers = Number(opt('layers', '4'));
const layerSize =
  Number.parseInt(opt('layer-size', '128M'), 10) * (opt('layer-size', '128M').endsWith('M') ? MiB : 1);
const runs = Number(opt('runs', '3'));
const work = mkdtempSync(join(tmpdir(), 'hubctl-bench-engine-'));
const log = (line) => process.stderr.write(`${line}\n`);

/** One ustar header; the archive podman loads is written by hand, uncompressed as an engine keeps it. */
function header(name, size) {
  const h = Buffer.alloc(512);
  h.write(name, 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write(
    `${[...h]
      .reduce((a, b) => a + b, 0)
      .toString(8)
      .padStart(6, '0')}\0 `,
    148,
  );
  return h;
}
const pad = (n) => Buffer.alloc((512 - (n % 512)) % 512);

function writeArchive(path) {
  const fd = openSync(path, 'w');
  const diffIds = [];
  const names = [];
  for (let i = 0; i < layers; i++) {
    // A layer: a tar holding one file of random bytes. Its digest is the diff_id.
    const hash = createHash('sha256');
    const layerTarSize = 512 + layerSize + pad(layerSize).length + 1024;
    const name = `layer${i}.tar`;
    writeSync(fd, header(name, layerTarSize));
    const parts = [header('data.bin', layerSize)];
    for (let left = layerSize; left > 0; left -= MiB) parts.push(randomBytes(Math.min(MiB, left)));
    parts.push(pad(layerSize), Buffer.alloc(1024));
    for (const p of parts) {
      hash.update(p);
      writeSync(fd, p);
    }
    writeSync(fd, pad(layerTarSize));
    diffIds.push(`sha256:${hash.digest('hex')}`);
    names.push(name);
  }
  const config = Buffer.from(
    JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: diffIds } }),
  );
  const manifest = Buffer.from(
    JSON.stringify([{ Config: 'config.json', RepoTags: ['localhost/bench:1'], Layers: names }]),
  );
  for (const [name, bytes] of [
    ['config.json', config],
    ['manifest.json', manifest],
  ]) {
    writeSync(fd, header(name, bytes.length));
    writeSync(fd, bytes);
    writeSync(fd, pad(bytes.length));
  }
  writeSync(fd, Buffer.alloc(1024));
  closeSync(fd);
}

async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

async function waitFor(check) {
  for (let i = 0; i < 400; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('a server did not start');
}

async function startRegistry() {
  const port = await freePort();
  const data = join(work, 'registry');
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data);
  const config = join(work, 'registry.yml');
  writeFileSync(
    config,
    `version: 0.1\nlog: {level: error}\nstorage: {filesystem: {rootdirectory: ${JSON.stringify(data)}}}\nhttp: {addr: "127.0.0.1:${port}", secret: s}\n`,
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('REGISTRY_')));
  const child = spawn('docker-registry', ['serve', config], { env, stdio: 'ignore' });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/v2/`)).status === 200);
  return {
    host: `127.0.0.1:${port}`,
    stop() {
      child.kill('SIGTERM');
      return new Promise((r) => child.once('exit', r));
    },
  };
}

const podmanBase = [
  '--root',
  join(work, 'root'),
  '--runroot',
  join(work, 'runroot'),
  '--storage-driver',
  'vfs',
];
const socket = join(work, 'podman.sock');
const conf = join(work, 'registries.conf');
writeFileSync(conf, '[[registry]]\nlocation = "127.0.0.1"\ninsecure = true\n');
const engineEnv = { ...process.env, CONTAINERS_REGISTRIES_CONF: conf, DOCKER_HOST: `unix://${socket}` };
const podman = (...a) =>
  execFileSync('podman', [...podmanBase, ...a], { env: engineEnv, stdio: ['ignore', 'pipe', 'pipe'] });

async function timed(cmd, argv) {
  execFileSync('sync');
  const out = join(work, 'time.txt');
  const child = spawn('/usr/bin/time', ['-f', '%e %M', '-o', out, cmd, ...argv], {
    env: { ...engineEnv, HUBCTL_CONFIG_DIR: mkdtempSync(join(work, 'cfg-')) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited with ${code}`);
  const [wall, rssKb] = readFileSync(out, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, rssMb: rssKb / 1024 };
}

/** skopeo's push from the engine to a registry repository. */
const skopeoPush = (ref) => [
  'copy',
  '-q',
  '--src-daemon-host',
  `unix://${socket}`,
  '--dest-tls-verify=false',
  'docker-daemon:localhost/bench:1',
  `docker://${ref}`,
];
const clearSkopeoCache = () => rmSync('/var/lib/containers/cache/blob-info-cache-v1.boltdb', { force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const service = spawn('podman', [...podmanBase, 'system', 'service', '--time=0', `unix://${socket}`], {
  env: engineEnv,
  stdio: 'ignore',
});
let registry;
try {
  const started = Date.now();
  const archive = join(work, 'bench.tar');
  writeArchive(archive);
  podman('load', '-i', archive);
  rmSync(archive);
  await waitFor(async () => {
    execFileSync('curl', ['-sf', '--unix-socket', socket, 'http://d/_ping'], { stdio: 'ignore' });
    return true;
  });
  log(
    `image of ${layers} × ${layerSize / MiB} MiB loaded into podman in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const results = { push: { hubctl: [], skopeo: [] }, pull: { hubctl: [], skopeo: [] } };
  registry = await startRegistry();
  // The pull source: pushed once by skopeo.
  execFileSync('skopeo', skopeoPush(`${registry.host}/src:1`));
  for (let i = 0; i < runs; i++) {
    for (const tool of i % 2 === 0 ? ['hubctl', 'skopeo'] : ['skopeo', 'hubctl']) {
      clearSkopeoCache();
      const name = `${tool}-${i}`;
      results.pull[tool].push(
        tool === 'hubctl'
          ? await timed(process.execPath, [
              hubctl,
              '-q',
              'image',
              'pull',
              `${registry.host}/src:1`,
              `docker-daemon:${name}:1`,
            ])
          : await timed('skopeo', [
              'copy',
              '-q',
              '--src-tls-verify=false',
              '--dest-daemon-host',
              `unix://${socket}`,
              `docker://${registry.host}/src:1`,
              `docker-daemon:${name}:1`,
            ]),
      );
      podman('rmi', `${name}:1`);
    }
  }
  await registry.stop();
  for (let i = 0; i < runs; i++) {
    for (const tool of i % 2 === 0 ? ['hubctl', 'skopeo'] : ['skopeo', 'hubctl']) {
      clearSkopeoCache();
      registry = await startRegistry();
      results.push[tool].push(
        tool === 'hubctl'
          ? await timed(process.execPath, [
              hubctl,
              '-q',
              'image',
              'push',
              'docker-daemon:localhost/bench:1',
              `${registry.host}/h:1`,
            ])
          : await timed('skopeo', skopeoPush(`${registry.host}/s:1`)),
      );
      await registry.stop();
      registry = undefined;
    }
  }
  const MiBTotal = (layers * layerSize) / MiB;
  const lines = [
    `engine bench: ${layers} × ${layerSize / MiB} MiB, ${runs} runs each, medians`,
    'op    tool     wall s   MiB/s   peak RSS MB',
  ];
  const ratios = [];
  for (const op of ['push', 'pull']) {
    const m = {};
    for (const tool of ['hubctl', 'skopeo']) {
      m[tool] = median(results[op][tool].map((r) => r.wall));
      const rss = median(results[op][tool].map((r) => r.rssMb));
      lines.push(
        `${op.padEnd(5)} ${tool.padEnd(8)} ${m[tool].toFixed(2).padStart(6)} ${(MiBTotal / m[tool]).toFixed(0).padStart(7)} ${rss.toFixed(0).padStart(10)}`,
      );
    }
    ratios.push(`${op}: wall ${(m.hubctl / m.skopeo).toFixed(2)}× skopeo (goal ≤ 1.00)`);
  }
  process.stdout.write(`${[...lines, ...ratios].join('\n')}\n`);
  log(`the bench took ${((Date.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await registry?.stop();
  service.kill('SIGTERM');
  await new Promise((r) => service.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
