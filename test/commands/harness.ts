// Shared set-up for command tests: the hub emulator on 127.0.0.1, a config directory per test, and
// runCli bound to both.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { type RunOptions, type RunResult, runCli } from '../support/run-cli.js';

export interface Harness {
  hub: HubEmulator;
  dir: string;
  env: Record<string, string>;
  run(argv: string[], options?: RunOptions): Promise<RunResult>;
  /** Logs alice in with her password (or another secret) through --password-stdin. */
  login(secret?: string, username?: string): Promise<RunResult>;
}

export async function startHarness(): Promise<Harness> {
  const hub = await startHubEmulator();
  const h: Harness = {
    hub,
    dir: '',
    env: {},
    run: (argv, options = {}) => runCli(argv, { ...options, env: { ...h.env, ...options.env } }),
    login: (secret = 'alice-password', username = 'alice') =>
      h.run(['auth', 'login', '--username', username, '--password-stdin'], { stdin: `${secret}\n` }),
  };
  return h;
}

/** A fresh config directory and environment; call in beforeEach. */
export function resetHarness(h: Harness): void {
  h.dir = mkdtempSync(join(tmpdir(), 'hubctl-cmd-'));
  h.env = {
    HUBCTL_CONFIG_DIR: h.dir,
    HOME: h.dir,
    DOCKER_CONFIG: join(h.dir, 'no-docker'),
    HUBCTL_BASE_URL: h.hub.url,
  };
  h.hub.clearRequests();
  h.hub.clearFaults();
}

/**
 * The hooks of a token-command test file: one emulator, and before each test a fresh config
 * directory, no access tokens, and alice logged in (her login's requests cleared).
 */
export function useLoggedInHarness(): { h: Harness } {
  const holder = {} as { h: Harness };
  beforeAll(async () => {
    holder.h = await startHarness();
  });
  afterAll(() => holder.h.hub.close());
  beforeEach(async () => {
    resetHarness(holder.h);
    holder.h.hub.state.accessTokens.length = 0;
    expect((await holder.h.login()).code).toBe(0);
    holder.h.hub.clearRequests();
  });
  return holder;
}
