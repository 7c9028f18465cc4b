import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { pullImage } from '../../image/pull.js';
import { type ImageReference, parseReference } from '../../ref/reference.js';
import { type ImageLocation, parseImageLocation } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { concurrencyOption, registryClient, stores, transferWithProgress, wantedPlatform } from './shared.js';

export interface PullOptions {
  ref: ImageReference;
  dest: ImageLocation;
  platform?: string;
  allPlatforms: boolean;
  concurrency: number;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('pull')
    .description('Download an image to an OCI layout or a docker archive (resumes a broken pull)')
    .argument('<ref>', 'image reference')
    .argument('<dest>', 'oci:DIR[:tag] or docker-archive:FILE')
    .option(
      '--platform <os/arch[/variant]>',
      "picked from an index; a single image must have it (default: this machine's)",
    )
    .option('--all-platforms', 'every platform of an index (oci: only)')
    .option('--concurrency <n>', 'blobs transferred at once', concurrencyOption, 4)
    .action(
      (ref: string, dest: string, o: { platform?: string; allPlatforms?: boolean; concurrency: number }) => {
        if (o.platform && o.allPlatforms)
          throw new UsageError('--platform and --all-platforms cannot be used together');
        const opts: PullOptions = {
          ref: parseReference(ref),
          dest: parseImageLocation(dest),
          platform: o.platform,
          allPlatforms: Boolean(o.allPlatforms),
          concurrency: o.concurrency,
        };
        if (opts.allPlatforms && opts.dest.transport === 'docker-archive') {
          throw new UsageError(
            'a docker archive holds one platform: pull --all-platforms into oci:DIR instead',
          );
        }
        return host.run((ctx) => runner(ctx, opts));
      },
    );
  return examples(cmd, [
    'hubctl image pull alpine:3.20 oci:./alpine:3.20',
    'hubctl image pull localhost:5000/team/app:1 docker-archive:app.tar --platform linux/arm64',
  ]);
}

export async function run(ctx: Context, opts: PullOptions): Promise<void> {
  const client = await registryClient(ctx);
  const platform = wantedPlatform(ctx, opts.platform);
  await transferWithProgress(ctx, 'Pulled', (progress) =>
    pullImage({
      client,
      ref: opts.ref,
      dest: opts.dest,
      platform,
      platformExplicit: opts.platform !== undefined,
      notice: (line) => ctx.output.info(line),
      allPlatforms: opts.allPlatforms,
      concurrency: opts.concurrency,
      progress,
      signal: ctx.signal,
      known: stores(ctx).known,
    }),
  );
}
