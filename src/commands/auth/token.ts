import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('token')
    .description('Print a fresh hub JWT on stdout, for scripts')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, [
    'curl -H "Authorization: Bearer $(hubctl auth token)" https://hub.docker.com/v2/access-tokens',
  ]);
}

export async function run(ctx: Context): Promise<void> {
  const jwt = await (await ctx.hubSession()).jwt();
  if (ctx.output.json) ctx.output.printJson({ token: jwt });
  else ctx.output.line(jwt);
}
