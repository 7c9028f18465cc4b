// Starts a real OCI registry for tests: Debian's `docker-registry` (distribution 2.8) on a free
// loopback port, filesystem storage in a temporary directory, deletes enabled, and token auth
// whose token service is the hub emulator (`emulator.registryAuth`), or no auth at all.
//
//   const registry = await startRegistry(hub.registryAuth);   // or startRegistry({ auth: 'none' })
//   registry.host    // '127.0.0.1:PORT'
//   await registry.stop();
//
// The binary reads every `REGISTRY_*` environment variable as a config override, so it is started
// with all of them removed. When the binary is missing, tests skip on a laptop and fail in CI.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';
import { freePort } from './free-port.js';
import { reapDirectory, reapProcess } from './reaper.js';

export interface RegistryTokenAuth {
  realm: string;
  service: string;
  issuer: string;
  certPath: string;
}

export type StartRegistryOptions = (RegistryTokenAuth | { auth: 'none' }) & {
  /** Keep the temporary directory (data, config, log) after stop(). */
  keep?: boolean;
};

export interface RunningRegistry {
  /** `127.0.0.1:PORT`, the registry part of an image reference. */
  host: string;
  /** `http://127.0.0.1:PORT` */
  url: string;
  dataDir: string;
  configPath: string;
  logPath: string;
  pid: number;
  /** SIGTERM, wait for the exit, remove the temporary directory (unless `keep`). */
  stop(): Promise<void>;
}

const BINARIES = ['docker-registry', 'registry'];

/** Absolute path of the registry binary on PATH, or undefined. */
export function registryBinary(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of BINARIES) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export function registryAvailable(): boolean {
  return registryBinary() !== undefined;
}

const missingMessage =
  'docker-registry is not installed (apt-get install -y docker-registry); it is required when CI=true';

/**
 * True when the registry can be started. False on a laptop without it (the caller skips); throws in
 * CI (`CI=true`), where a missing binary must fail the run.
 */
export function requireRegistry(): boolean {
  if (registryAvailable()) return true;
  if (process.env.CI === 'true') throw new Error(missingMessage);
  return false;
}

/** `describe` that skips without the registry binary on a laptop, and fails in CI. */
export function describeWithRegistry(name: string, fn: () => void): void {
  if (registryAvailable()) {
    describe(name, fn);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs the registry binary', () => {
        throw new Error(missingMessage);
      });
    });
  } else {
    describe.skip(name, fn);
  }
}

/** The environment without any REGISTRY_* variable. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('REGISTRY_')) env[k] = v;
  return env;
}

function configYaml(port: number, dataDir: string, opts: StartRegistryOptions): string {
  const q = (s: string) => JSON.stringify(s); // a JSON string is a valid YAML double-quoted scalar
  const lines = [
    'version: 0.1',
    'log:',
    '  level: info',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${q(dataDir)}`,
    '  delete:',
    '    enabled: true',
    '  cache:',
    '    blobdescriptor: inmemory',
    '  maintenance:',
    '    uploadpurging:',
    '      enabled: false',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    '  secret: hubctl-test-registry-secret',
  ];
  if (!('auth' in opts)) {
    lines.push(
      'auth:',
      '  token:',
      `    realm: ${q(opts.realm)}`,
      `    service: ${q(opts.service)}`,
      `    issuer: ${q(opts.issuer)}`,
      `    rootcertbundle: ${q(opts.certPath)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function launchOnce(
  bin: string,
  dir: string,
  opts: StartRegistryOptions,
  releaseDir: () => void,
): Promise<{ ok: true; registry: RunningRegistry } | { ok: false; portTaken: boolean; log: string }> {
  const port = await freePort();
  const dataDir = join(dir, 'data');
  const configPath = join(dir, 'config.yml');
  const logPath = join(dir, 'registry.log');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(configPath, configYaml(port, dataDir, opts));
  const logFd = openSync(logPath, 'a');
  const child = spawn(bin, ['serve', configPath], { env: cleanEnv(), stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  killOnExit(child);
  const releasePid = child.pid ? reapProcess(child.pid) : () => {};
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const want = 'auth' in opts ? 200 : 401;
  const deadline = Date.now() + 15_000;
  while (!exited && Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === want) {
        const registry: RunningRegistry = {
          host: `127.0.0.1:${port}`,
          url,
          dataDir,
          configPath,
          logPath,
          pid: child.pid ?? 0,
          async stop() {
            child.kill('SIGTERM');
            if (!(await waitForExit(child, 5000))) {
              child.kill('SIGKILL');
              await waitForExit(child, 2000);
            }
            releasePid();
            if (!opts.keep) rmSync(dir, { recursive: true, force: true });
            releaseDir();
          },
        };
        return { ok: true, registry };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  await waitForExit(child, 2000);
  releasePid();
  const log = readFileSync(logPath, 'utf8');
  return { ok: false, portTaken: /address already in use/i.test(log), log };
}

export async function startRegistry(opts: StartRegistryOptions): Promise<RunningRegistry> {
  const bin = registryBinary();
  if (!bin) throw new Error(missingMessage);
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-registry-'));
  // Removed when the test process ends even if stop() is never called (unless `keep`).
  const releaseDir = opts.keep ? () => {} : reapDirectory(dir);
  let lastLog = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await launchOnce(bin, dir, opts, releaseDir);
    if (result.ok) return result.registry;
    lastLog = result.log;
    if (!result.portTaken) break;
  }
  rmSync(dir, { recursive: true, force: true });
  releaseDir();
  throw new Error(`the registry did not start; its log ends:\n${lastLog.split('\n').slice(-20).join('\n')}`);
}
