import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { LOCAL_PREFIXES, PLACE_FORMS, type PlaceRef, parsePlace, placesHelp } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { runAllTags } from './copy-all-tags.js';
import type { CopyOptions } from './copy-options.js';
import { runTransfer } from './shared.js';
import { type TransferFlags, transferOptions, transferSettings } from './transfer-options.js';

export type { CopyOptions };

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = transferOptions(
    group
      .command('copy')
      .description(`Copy an image from any place to any other: registry, ${LOCAL_PREFIXES}`)
      .argument('<src>', `where the image is: ${PLACE_FORMS}`)
      .argument('<dst>', 'where it goes (same forms)'),
  )
    .option('--all-tags', 'every tag of the source repository to the destination repository (registries)')
    .addHelpText('after', placesHelp('all'))
    .action((src: string, dst: string, o: TransferFlags & { allTags?: boolean }, self: Command) => {
      const settings = transferSettings(o, self);
      const allTags = Boolean(o.allTags);
      const opts: CopyOptions = {
        src: allTags ? repositoryPlace(src) : parsePlace(src),
        dst: allTags ? repositoryPlace(dst) : parsePlace(dst),
        allTags,
        ...settings,
      };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image copy alpine:3.20 localhost:5000/mirror/alpine:3.20 --all-platforms',
    'hubctl image copy oci:./build:1 oci-archive:out.tar',
    'hubctl image copy docker-archive:app.tar:app:1 localhost:5000/app:1',
    'hubctl image copy docker://localhost:5000/app:1 docker-archive:app.tar:app:1',
    'hubctl image copy --all-tags registry.example.com/team/app localhost:5000/mirror/app --json',
    'hubctl image copy docker-daemon:app:1 oci:./out:1',
    'hubctl image copy --referrers registry.example.com/base/node:22 localhost:5000/base/node:22',
  ]);
}

/** A registry repository without tag or digest, for --all-tags. */
function repositoryPlace(input: string): PlaceRef {
  const place = parsePlace(input, { defaultTag: false });
  if (place.transport !== 'registry' || place.ref.tag !== undefined || place.ref.digest !== undefined)
    throw new UsageError(
      `--all-tags copies between registry repositories: write host/repository, not "${input}"`,
    );
  return place;
}

export async function run(ctx: Context, opts: CopyOptions): Promise<number | undefined> {
  if (opts.allTags) return runAllTags(ctx, opts);
  await runTransfer(ctx, 'Copied', opts);
  return undefined;
}
