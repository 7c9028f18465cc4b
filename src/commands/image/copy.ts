import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { copyImage } from '../../image/copy.js';
import { type ImageReference, parseReference } from '../../ref/reference.js';
import { type CommandHost, examples } from '../host.js';
import {
  concurrencyOption,
  note,
  registryClient,
  stores,
  transferWithProgress,
  wantedPlatform,
} from './shared.js';

export interface CopyOptions {
  src: ImageReference;
  dst: ImageReference;
  platform?: string;
  allPlatforms: boolean;
  concurrency: number;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('copy')
    .description('Copy an image between registries or repositories, streaming (digests preserved)')
    .argument('<src-ref>', 'source image reference')
    .argument('<dst-ref>', 'destination image reference')
    .option('--all-platforms', 'copy the index and every platform')
    .option(
      '--platform <os/arch[/variant]>',
      "picked from an index; a single image must have it (default: this machine's)",
    )
    .option('--concurrency <n>', 'blobs transferred at once', concurrencyOption, 4)
    .action(
      (src: string, dst: string, o: { platform?: string; allPlatforms?: boolean; concurrency: number }) => {
        if (o.platform && o.allPlatforms)
          throw new UsageError('--platform and --all-platforms cannot be used together');
        const opts: CopyOptions = {
          src: parseReference(src),
          dst: parseReference(dst),
          platform: o.platform,
          allPlatforms: Boolean(o.allPlatforms),
          concurrency: o.concurrency,
        };
        return host.run((ctx) => runner(ctx, opts));
      },
    );
  return examples(cmd, [
    'hubctl image copy alpine:3.20 localhost:5000/mirror/alpine:3.20 --all-platforms',
    'hubctl image copy localhost:5000/team/app:1 localhost:5000/team/app:stable',
  ]);
}

export async function run(ctx: Context, opts: CopyOptions): Promise<void> {
  const client = await registryClient(ctx);
  await transferWithProgress(ctx, 'Copied', (progress) =>
    copyImage({
      client,
      src: opts.src,
      dst: opts.dst,
      platform: wantedPlatform(ctx, opts.platform),
      platformExplicit: opts.platform !== undefined,
      allPlatforms: opts.allPlatforms,
      concurrency: opts.concurrency,
      progress,
      signal: ctx.signal,
      known: stores(ctx).known,
      note: note(ctx),
    }),
  );
}
