import type { Command } from 'commander';
import { profileName } from '../../config/settings.js';
import type { ProfileKey } from '../../config/store.js';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { profileKey } from './keys.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('unset')
    .description('Remove a setting from the profile')
    .argument('<key>', 'setting name')
    .action((key: string) => {
      const k = profileKey(key);
      return host.run((ctx) => runner(ctx, k));
    });
  return examples(cmd, ['hubctl config unset org']);
}

export async function run(ctx: Context, key: ProfileKey): Promise<void> {
  // Only the profile's name: a stored value that is refused (a base URL with a password in it)
  // must not keep `config` from showing, replacing or removing it.
  const profile = profileName(ctx.globals, ctx.env);
  const removed = (await ctx.config()).unset(profile, key);
  if (ctx.output.json) ctx.output.printJson({ profile, key, removed });
  else
    ctx.output.info(
      removed ? `Removed ${key} from profile "${profile}".` : `${key} was not set in profile "${profile}".`,
    );
}
