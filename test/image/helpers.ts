// Shared set-up of the image tests: the hub emulator as token service, a real registry, and a
// hubctl environment whose credentials for that registry come from a docker config file.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { type RunningRegistry, startRegistry } from '../support/registry.js';
import { type RunOptions, type RunResult, runCli } from '../support/run-cli.js';

export interface ImageWorld {
  hub: HubEmulator;
  registry: RunningRegistry;
  /** Environment with alice's credentials for the registry (and for `extraHosts`). */
  env: Record<string, string>;
  /** Environment without any registry credentials. */
  anonEnv: Record<string, string>;
  tmp: string;
  run(argv: string[], opts?: RunOptions): Promise<RunResult>;
  /** A config dir (and so a state dir) shared by several runs. */
  withCredentialsFor(hosts: string[], user?: string, password?: string): Record<string, string>;
  stop(): Promise<void>;
}

export async function startImageWorld(): Promise<ImageWorld> {
  const hub = await startHubEmulator();
  const registry = await startRegistry(hub.registryAuth);
  const tmp = mkdtempSync(join(tmpdir(), 'hubctl-image-'));
  let n = 0;
  const withCredentialsFor = (hosts: string[], user = 'alice', password = 'alice-password') => {
    const dir = join(tmp, `env-${++n}`);
    mkdirSync(join(dir, 'docker'), { recursive: true });
    const auth = Buffer.from(`${user}:${password}`).toString('base64');
    writeFileSync(
      join(dir, 'docker', 'config.json'),
      JSON.stringify({ auths: Object.fromEntries(hosts.map((h) => [h, { auth }])) }),
    );
    return {
      HUBCTL_CONFIG_DIR: join(dir, 'config'),
      HOME: dir,
      DOCKER_CONFIG: join(dir, 'docker'),
      HUBCTL_BASE_URL: hub.url,
      HUBCTL_PLATFORM: 'linux/amd64',
    };
  };
  const env = withCredentialsFor([registry.host]);
  const anonDir = join(tmp, 'anon');
  const anonEnv = {
    HUBCTL_CONFIG_DIR: join(anonDir, 'config'),
    HOME: anonDir,
    DOCKER_CONFIG: join(anonDir, 'docker'),
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_PLATFORM: 'linux/amd64',
  };
  return {
    hub,
    registry,
    env,
    anonEnv,
    tmp,
    withCredentialsFor,
    run: (argv, opts = {}) => runCli(argv, { ...opts, env: { ...env, ...opts.env } }),
    async stop() {
      await registry.stop();
      await hub.close();
    },
  };
}
