import type { Command } from 'commander';
import { NEWEST_API } from '../../api/engine/api-version.js';
import type { VersionChoice } from '../../api/engine/client.js';
import { versionSchema } from '../../api/engine/schemas.js';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('version')
    .description('Show the engine API versions: hubctl’s newest, the daemon’s range, the one negotiated')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, [
    'hubctl engine version',
    'DOCKER_HOST=tcp://127.0.0.1:2375 hubctl engine version --json',
    'DOCKER_API_VERSION=1.41 hubctl engine version',
  ]);
}

const HOW: Record<VersionChoice, string> = {
  DOCKER_API_VERSION: 'pinned by DOCKER_API_VERSION',
  negotiated: 'the daemon’s newest, from /_ping',
  capped: `the daemon is newer: capped at hubctl’s newest, ${NEWEST_API}`,
};

export async function run(ctx: Context): Promise<void> {
  const engine = await ctx.engine();
  const n = await engine.negotiate();
  const daemon = await engine.getJson('/version', versionSchema, 'asking the engine version');
  const result = {
    address: engine.address.display,
    client: { newestApiVersion: NEWEST_API },
    daemon: {
      version: daemon.Version,
      apiVersion: daemon.ApiVersion,
      minApiVersion: daemon.MinAPIVersion ?? null,
      os: daemon.Os ?? null,
      arch: daemon.Arch ?? null,
    },
    negotiated: { apiVersion: n.version, how: n.how },
  };
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  await ctx.output.fields([
    ['Engine', `${result.address}`],
    ['Client newest API', NEWEST_API],
    ['Daemon version', daemon.Version],
    ['Daemon API', daemon.ApiVersion],
    ['Daemon minimum API', daemon.MinAPIVersion ?? 'not given'],
    ['Negotiated API', n.version],
    ['Chosen', HOW[n.how]],
  ]);
}
