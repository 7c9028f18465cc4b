import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { resolveDigest } from '../../image/delete.js';
import { formatReference, type ImageReference, parseReference } from '../../ref/reference.js';
import { type CommandHost, examples } from '../host.js';
import { registryClient } from './shared.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('digest')
    .description("Print the digest of an image's manifest (or index)")
    .argument('<ref>', 'image reference (host/repository:tag)')
    .action((ref: string) => {
      const parsed = parseReference(ref);
      return host.run((ctx) => runner(ctx, parsed));
    });
  return examples(cmd, ['hubctl image digest localhost:5000/team/app:1']);
}

export async function run(ctx: Context, ref: ImageReference): Promise<void> {
  const client = await registryClient(ctx);
  const digest = await resolveDigest(client, ref);
  if (ctx.output.json) ctx.output.printJson({ reference: formatReference(ref), digest });
  else ctx.output.line(digest);
}
