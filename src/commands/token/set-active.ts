import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { showToken } from './get.js';
import { resolveTokenUuid } from './resolve.js';
import { checkTokenRef } from './values.js';

export type Verb = 'activate' | 'deactivate';

export function register(group: Command, host: CommandHost, verb: Verb, runner = run): Command {
  const cmd = group
    .command(verb)
    .description(
      verb === 'activate' ? 'Turn an access token back on' : 'Turn an access token off without deleting it',
    )
    .argument('<token>', 'token UUID, or its label when that is unique')
    .action((token: string) => {
      const id = checkTokenRef(token);
      return host.run((ctx) => runner(ctx, id, verb === 'activate'));
    });
  return examples(cmd, [`hubctl token ${verb} 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b`]);
}

export async function run(ctx: Context, ref: string, active: boolean): Promise<void> {
  const client = await ctx.accessTokens();
  const uuid = await resolveTokenUuid(client, ref);
  const token = await client.update(uuid, { is_active: active });
  if (!ctx.output.json) ctx.output.info(`Token ${uuid} is now ${active ? 'active' : 'inactive'}.`);
  await showToken(ctx, token);
}
