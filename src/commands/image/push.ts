import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type ImageReference, parseReference } from '../../ref/reference.js';
import { LOCAL_FORMS, LOCAL_PREFIXES, type PlaceRef, parsePlace, placesHelp } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { runTransfer } from './shared.js';
import { checkFlags, concurrencyDefaulted, type TransferFlags, transferOptions } from './transfer-options.js';

export interface PushOptions {
  src: PlaceRef;
  ref: ImageReference;
  platform?: string;
  allPlatforms: boolean;
  concurrency: number;
  referrers?: boolean;
  concurrencyDefault?: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = transferOptions(
    group
      .command('push')
      .description('Upload a local image to a registry (skips, mounts, resumes unfinished uploads)')
      .argument('<src>', LOCAL_FORMS)
      .argument('<ref>', 'destination image reference'),
  )
    .addHelpText('after', placesHelp('local'))
    .action((src: string, ref: string, o: TransferFlags, self: Command) => {
      checkFlags(o);
      const place = parsePlace(src);
      if (place.transport === 'registry')
        throw new UsageError(`push reads a local image (${LOCAL_PREFIXES}): use image copy ${src} ${ref}`);
      const opts: PushOptions = {
        src: place,
        ref: parseReference(ref.replace(/^docker:\/\//, '')),
        platform: o.platform,
        // A push sends what the layout holds, every platform, unless one is asked for.
        allPlatforms: o.platform === undefined,
        concurrency: o.concurrency,
        ...(o.referrers ? { referrers: true } : {}),
        ...concurrencyDefaulted(self),
      };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image push oci:./build:latest localhost:5000/team/app:1',
    'hubctl image push docker-archive:app.tar registry.example.com/team/app:1 --concurrency 8',
    'hubctl image push docker-daemon:app:1 localhost:5000/team/app:1',
  ]);
}

export async function run(ctx: Context, opts: PushOptions): Promise<void> {
  await runTransfer(ctx, 'Pushed', { ...opts, dst: { transport: 'registry', ref: opts.ref } });
}
