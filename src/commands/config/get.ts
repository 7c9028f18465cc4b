import type { Command } from 'commander';
import type { ProfileKey } from '../../config/store.js';
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
  const profile = (await ctx.settings()).profile;
  const value = (await ctx.config()).getProfile(profile)[key];
  if (value === undefined) throw new NotFoundError(`${key} is not set in profile "${profile}"`);
  if (ctx.output.json) ctx.output.printJson({ profile, key, value });
  else ctx.output.line(value);
}
