// A real engine API for tests: Debian's podman as `podman system service`, with the vfs storage
// driver and its own root, runroot and registries.conf (loopback registries are insecure) in a
// temporary folder. Listens on a unix socket or on tcp://127.0.0.1:PORT. Skipped without podman on
// a laptop; a failure under CI=true.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { freePort } from './free-port.js';
import { reapDirectory, reapProcess } from './reaper.js';

export interface RunningPodman {
  /** DOCKER_HOST for it. */
  host: string;
  dir: string;
  /** Environment for podman and skopeo commands against the same storage. */
  env: Record<string, string>;
  /** `podman` with this service's root and runroot. */
  podman(args: string[]): { code: number; stdout: string; stderr: string };
  stop(): Promise<void>;
}

export function podmanAvailable(): boolean {
  return spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
}

const missing = 'podman is not installed (apt-get install -y podman); it is required when CI=true';

export function describeWithPodman(name: string, fn: () => void): void {
  if (podmanAvailable()) describe(name, fn);
  else if (process.env.CI === 'true')
    describe(name, () =>
      it('needs podman', () => {
        throw new Error(missing);
      }),
    );
  else describe.skip(`${name} (podman not installed)`, fn);
}

export async function startPodman(listen: 'unix' | 'tcp' = 'unix'): Promise<RunningPodman> {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-podman-'));
  const releaseDir = reapDirectory(dir);
  const conf = join(dir, 'registries.conf');
  writeFileSync(
    conf,
    ['127.0.0.1', 'localhost'].map((h) => `[[registry]]\nlocation = "${h}"\ninsecure = true\n`).join('\n'),
  );
  const env = { ...process.env, CONTAINERS_REGISTRIES_CONF: conf } as Record<string, string>;
  const base = ['--root', join(dir, 'root'), '--runroot', join(dir, 'runroot'), '--storage-driver', 'vfs'];
  const socket = join(dir, 'podman.sock');
  const address = listen === 'unix' ? `unix://${socket}` : `tcp://127.0.0.1:${await freePort()}`;
  const child: ChildProcess = spawn('podman', [...base, 'system', 'service', '--time=0', address], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d) => {
    log += String(d);
  });
  const releasePid = reapProcess(child.pid as number);
  const host = address;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (await answers(host, socket)) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`podman system service did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    host,
    dir,
    env,
    podman(args) {
      const r = spawnSync('podman', [...base, ...args], { env, encoding: 'utf8' });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    },
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      releasePid();
      // vfs layers are owned by root; --force is enough.
      await rm(dir, { recursive: true, force: true });
      releaseDir();
    },
  };
}

async function answers(host: string, socket: string): Promise<boolean> {
  if (host.startsWith('unix://') && !existsSync(socket)) return false;
  const { request } = await import('node:http');
  return new Promise((resolve) => {
    const opts = host.startsWith('unix://')
      ? { socketPath: socket, path: '/_ping' }
      : { host: '127.0.0.1', port: Number(host.split(':').at(-1)), path: '/_ping' };
    const req = request(opts, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}
