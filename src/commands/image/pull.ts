import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type ImageReference, parseReference } from '../../ref/reference.js';
import { LOCAL_FORMS, LOCAL_PREFIXES, type PlaceRef, parsePlace, placesHelp } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { runTransfer } from './shared.js';
import {
  type TransferFlags,
  type TransferSettings,
  transferOptions,
  transferSettings,
} from './transfer-options.js';

export interface PullOptions extends TransferSettings {
  ref: ImageReference;
  dest: PlaceRef;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = transferOptions(
    group
      .command('pull')
      .description('Download an image to a local place (resumes a broken pull into oci:)')
      .argument('<ref>', 'image reference')
      .argument('<dest>', LOCAL_FORMS),
  )
    .addHelpText('after', placesHelp('local'))
    .action((ref: string, dest: string, o: TransferFlags, self: Command) => {
      const settings = transferSettings(o, self);
      const place = parsePlace(dest);
      if (place.transport === 'registry')
        throw new UsageError(`pull writes a local image (${LOCAL_PREFIXES}): use image copy ${ref} ${dest}`);
      if (o.allPlatforms && (place.transport === 'docker-archive' || place.transport === 'docker-daemon'))
        throw new UsageError(
          `${place.transport === 'docker-daemon' ? 'the engine' : 'a docker archive'} holds one platform per name: pull --all-platforms into oci:DIR instead`,
        );
      const opts: PullOptions = {
        ref: parseReference(ref.replace(/^docker:\/\//, '')),
        dest: place,
        ...settings,
      };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image pull alpine:3.20 oci:./alpine:3.20',
    'hubctl image pull localhost:5000/team/app:1 docker-archive:app.tar --platform linux/arm64',
    'hubctl image pull localhost:5000/team/app:1 oci-archive:app.tar --all-platforms',
    'hubctl image pull localhost:5000/team/app:1 docker-daemon:app:1',
    'hubctl image pull --referrers localhost:5000/team/app:1 oci:./app:1',
  ]);
}

export async function run(ctx: Context, opts: PullOptions): Promise<void> {
  await runTransfer(ctx, 'Pulled', {
    ...opts,
    src: { transport: 'registry', ref: opts.ref },
    dst: opts.dest,
    names: 'source',
  });
}
