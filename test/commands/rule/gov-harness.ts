// Shared set-up for the governance command tests (policy and rule verbs): a fresh hub emulator per
// test with sequential ids (pol_0001, rule_0001…), alice's credentials in the environment, and helpers to read what the server saw.
import { Command } from 'commander';
import type { CommandHost } from '../../../src/commands/host.js';
import type { Context } from '../../../src/context.js';
import {
  type HubEmulator,
  type PolicySeed,
  type RecordedRequest,
  type StoredPolicy,
  startHubEmulator,
} from '../../support/hub-emulator.js';
import { type RunOptions, type RunResult, runCli } from '../../support/run-cli.js';

export interface GovHarness {
  hub: HubEmulator;
  env: Record<string, string>;
  /** Runs hubctl with alice's credentials for org acme (piped unless `tty`). */
  run(argv: string[], options?: RunOptions): Promise<RunResult>;
  /** Governance requests the emulator received (the token exchange left out). */
  gov(): RecordedRequest[];
  /** `METHOD /path` of each governance request, the org prefix cut. */
  calls(): string[];
  seed(seed: PolicySeed): StoredPolicy;
  close(): Promise<void>;
}

export const SEED_TIME = '2026-11-01T09:30:00.000Z';
export const LATER_TIME = '2026-11-20T17:45:10.000Z';

export async function startGovHarness(): Promise<GovHarness> {
  const hub = await startHubEmulator({ sequentialIds: true });
  const env = {
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_USERNAME: 'alice',
    HUBCTL_TOKEN: 'alice-password',
    HUBCTL_ORG: 'acme',
    NO_COLOR: '1',
  };
  const gov = () => hub.requests.filter((r) => r.path.includes('/governance/'));
  return {
    hub,
    env,
    run: (argv, options = {}) => runCli(argv, { ...options, env: { ...env, ...options.env } }),
    gov,
    calls: () =>
      gov().map(
        (r) =>
          `${r.method} ${r.path.replace('/v2/orgs/acme/governance/policies', '/p')}${r.query.size ? `?${r.query}` : ''}`,
      ),
    seed: (seed) => hub.seedPolicy('acme', { created_at: SEED_TIME, updated_at: LATER_TIME, ...seed }),
    close: () => hub.close(),
  };
}

export const NET_RULE = {
  name: 'github',
  actions: ['connect:tcp'],
  decision: 'allow',
  resources: ['github.com:443', '**.github.com'],
};
export const FS_RULE = {
  name: 'data',
  actions: ['read', 'write'],
  decision: 'allow',
  resources: ['/data/**'],
};

/** Parses argv with a verb's register() and a spy in place of run(); returns the options it got. */
export async function parseWith<T extends unknown[]>(
  register: (
    group: Command,
    host: CommandHost,
    runner: (ctx: Context, ...args: T) => Promise<void>,
  ) => unknown,
  argv: string[],
): Promise<T[]> {
  const calls: T[] = [];
  const root = new Command('hubctl')
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
  const group = root.command('g');
  const host: CommandHost = {
    run: async (body) => {
      await body({} as Context);
    },
  };
  register(group, host, async (_ctx, ...args) => {
    calls.push(args);
  });
  await root.parseAsync(['g', ...argv], { from: 'user' });
  return calls;
}
