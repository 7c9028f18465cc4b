import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { openLocalImage } from '../../image/local-image.js';
import { pushImage } from '../../image/push.js';
import { type ImageReference, parseReference } from '../../ref/reference.js';
import { type ImageLocation, parseImageLocation } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import {
  concurrencyOption,
  note,
  registryClient,
  stores,
  transferWithProgress,
  uploadSizes,
} from './shared.js';

export interface PushOptions {
  src: ImageLocation;
  ref: ImageReference;
  concurrency: number;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('push')
    .description('Upload an OCI layout or docker archive (skips, mounts, resumes unfinished uploads)')
    .argument('<src>', 'oci:DIR[:tag] or docker-archive:FILE')
    .argument('<ref>', 'destination image reference')
    .option('--concurrency <n>', 'blobs transferred at once', concurrencyOption, 4)
    .action((src: string, ref: string, o: { concurrency: number }) => {
      const opts: PushOptions = {
        src: parseImageLocation(src),
        ref: parseReference(ref),
        concurrency: o.concurrency,
      };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image push oci:./build:latest localhost:5000/team/app:1',
    'hubctl image push docker-archive:app.tar registry.example.com/team/app:1 --concurrency 8',
  ]);
}

export async function run(ctx: Context, opts: PushOptions): Promise<void> {
  const source = await openLocalImage(opts.src);
  const client = await registryClient(ctx);
  const { uploads, known } = stores(ctx);
  await transferWithProgress(ctx, 'Pushed', (progress) =>
    pushImage({
      client,
      source,
      dest: opts.ref,
      concurrency: opts.concurrency,
      progress,
      signal: ctx.signal,
      uploads,
      known,
      note: note(ctx),
      ...uploadSizes(ctx),
    }),
  );
}
