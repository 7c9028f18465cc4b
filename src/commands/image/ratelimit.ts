import type { Command } from 'commander';
import type { Context } from '../../context.js';
import {
  formatReference,
  type ImageReference,
  manifestReference,
  parseReference,
} from '../../ref/reference.js';
import { type CommandHost, examples } from '../host.js';

/** What Docker documents for checking the limit: a HEAD of this manifest is not counted. */
export const DEFAULT_RATELIMIT_REF = 'docker.io/ratelimitpreview/test:latest';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('ratelimit')
    .description('Show the pull rate limit a registry reports (from a HEAD, which is not counted as a pull)')
    .argument('[ref]', `an image reference on the registry (default: ${DEFAULT_RATELIMIT_REF})`)
    .action((ref: string | undefined) => {
      const parsed = parseReference((ref ?? DEFAULT_RATELIMIT_REF).replace(/^docker:\/\//, ''));
      return host.run((ctx) => runner(ctx, parsed));
    });
  return examples(cmd, [
    'hubctl image ratelimit',
    'hubctl image ratelimit alpine:3.20 --json',
    'hubctl image ratelimit localhost:5000/team/app:1',
  ]);
}

export async function run(ctx: Context, ref: ImageReference): Promise<void> {
  const client = await ctx.registry();
  const limit = await client.rateLimit(ref, manifestReference(ref));
  const name = formatReference(ref);
  if (ctx.output.json) {
    ctx.output.printJson({
      registry: ref.registry,
      reference: name,
      reported: limit !== undefined,
      ...(limit ?? {}),
    });
    return;
  }
  if (!limit) {
    ctx.output.info(`${ref.registry} reports no pull rate limit (no ratelimit-limit header on ${name}).`);
    return;
  }
  const window =
    limit.windowSeconds === undefined
      ? ''
      : limit.windowSeconds % 3600 === 0
        ? ` per ${limit.windowSeconds / 3600} h`
        : ` per ${limit.windowSeconds} s`;
  await ctx.output.fields([
    ['Registry', ref.registry],
    ['Limit', `${limit.limit} pulls${window}`],
    ['Remaining', limit.remaining],
    ['Source', limit.source ?? 'not said'],
  ]);
}
