import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CancelledError } from '../../errors.js';
import { type CommandHost, confirmDestructive, examples } from '../host.js';
import { checkUuid } from './values.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('delete')
    .description('Delete an access token for good (asks first; --yes without a terminal)')
    .argument('<uuid>', 'token UUID')
    .action((uuid: string) => {
      const id = checkUuid(uuid);
      return host.run((ctx) => runner(ctx, id));
    });
  return examples(cmd, ['hubctl token delete 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b --yes']);
}

export async function run(ctx: Context, uuid: string): Promise<void> {
  if (!(await confirmDestructive(ctx, `Delete access token ${uuid}? Anything using it stops working.`))) {
    throw new CancelledError('nothing was deleted');
  }
  await (await ctx.accessTokens()).delete(uuid);
  if (ctx.output.json) ctx.output.printJson({ deleted: uuid });
  else ctx.output.info(`Deleted access token ${uuid}.`);
}
