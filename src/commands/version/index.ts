// `hubctl version`: hubctl's version, node's and the platform; --json for scripts and bug reports.
// (`hubctl --version` prints the version alone, without loading anything.)
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { VERSION } from '../../version.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  group.action(() => host.run((ctx) => runner(ctx)));
  return examples(group, ['hubctl version', "hubctl version --jq '.version'"]);
}

export async function run(ctx: Context): Promise<void> {
  const info = { version: VERSION, node: ctx.runtime.node, platform: ctx.runtime.platform };
  if (ctx.output.json) {
    ctx.output.printJson(info);
    return;
  }
  await ctx.output.fields([
    ['hubctl', info.version],
    ['node', info.node],
    ['platform', info.platform],
  ]);
}
