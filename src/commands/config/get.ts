import type { Command } from 'commander';
import { profileName } from '../../config/settings.js';
import type { ProfileKey } from '../../config/store.js';
import { redactUserinfo } from '../../config/values.js';
import type { Context } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { type CommandHost, examples } from '../host.js';
import { KEY_NAMES, profileKey } from './keys.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('get')
    .description(`Print one setting of the profile as stored (${KEY_NAMES.join(', ')})`)
    .argument('<key>', 'setting name')
    .action((key: string) => {
      const k = profileKey(key);
      return host.run((ctx) => runner(ctx, k));
    });
  return examples(cmd, ['hubctl config get org']);
}

export async function run(ctx: Context, key: ProfileKey): Promise<void> {
  // Only the profile's name: a stored value that is refused (a base URL with a password in it)
  // must not keep `config` from showing, replacing or removing it.
  const profile = profileName(ctx.globals, ctx.env);
  const stored = (await ctx.config()).getProfile(profile)[key];
  if (stored === undefined) throw new NotFoundError(`${key} is not set in profile "${profile}"`);
  // An address written by hand with a password in it is shown without it.
  const value = key === 'base-url' || key === 'governance-url' ? redactUserinfo(stored) : stored;
  if (ctx.output.json) ctx.output.printJson({ profile, key, value });
  else ctx.output.line(value);
}
