import type { Command } from 'commander';
import { profileName } from '../../config/settings.js';
import type { ProfileKey } from '../../config/store.js';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { checkValue, KEY_NAMES, profileKey } from './keys.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('set')
    .description(`Store a setting in the profile (${KEY_NAMES.join(', ')})`)
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .action((key: string, value: string) => {
      const k = profileKey(key);
      const v = checkValue(k, value);
      return host.run((ctx) => runner(ctx, k, v));
    });
  return examples(cmd, [
    'hubctl config set org acme',
    'hubctl --profile staging config set base-url https://hub.staging.example.com',
  ]);
}

export async function run(ctx: Context, key: ProfileKey, value: string): Promise<void> {
  // Only the profile's name: a stored value that is refused (a base URL with a password in it)
  // must not keep `config` from showing, replacing or removing it.
  const profile = profileName(ctx.globals, ctx.env);
  (await ctx.config()).set(profile, key, value);
  if (ctx.output.json) ctx.output.printJson({ profile, key, value });
  else ctx.output.info(`Set ${key} to ${value} in profile "${profile}".`);
}
