import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CancelledError } from '../../errors.js';
import { type CommandHost, confirmDestructive, examples } from '../host.js';
import { resolveTokenUuid } from './resolve.js';
import { checkTokenRef } from './values.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('delete')
    .description('Delete an access token for good (asks first; --yes without a terminal)')
    .argument('<token>', 'token UUID, or its label when that is unique')
    .action((token: string) => {
      const id = checkTokenRef(token);
      return host.run((ctx) => runner(ctx, id));
    });
  return examples(cmd, [
    'hubctl token delete 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b --yes',
    'hubctl token delete old-ci --yes',
  ]);
}

export async function run(ctx: Context, ref: string): Promise<void> {
  const client = await ctx.accessTokens();
  const uuid = await resolveTokenUuid(client, ref);
  if (!(await confirmDestructive(ctx, `Delete access token ${uuid}? Anything using it stops working.`))) {
    throw new CancelledError('nothing was deleted');
  }
  await client.delete(uuid);
  if (ctx.output.json) ctx.output.printJson({ deleted: uuid });
  else ctx.output.info(`Deleted access token ${uuid}.`);
}
