import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { openSource } from '../../image/places.js';
import { parsePlatform } from '../../image/platform.js';
import { selectImages } from '../../image/select.js';
import { PLACE_FORMS, type PlaceRef, parsePlace } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { placeDeps, platformChoice } from './shared.js';

export interface DigestOptions {
  place: PlaceRef;
  platform?: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('digest')
    .description("Print the digest of an image's manifest (or index), or of one platform's manifest")
    .argument('<ref>', `the image: ${PLACE_FORMS}`)
    .option('--platform <os/arch[/variant]>', "the digest of this platform's image manifest")
    .action((ref: string, o: { platform?: string }) => {
      if (o.platform !== undefined) parsePlatform(o.platform);
      const opts: DigestOptions = { place: parsePlace(ref), platform: o.platform };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image digest localhost:5000/team/app:1',
    'hubctl image digest alpine:3.20 --platform linux/arm64',
  ]);
}

export async function run(ctx: Context, opts: DigestOptions): Promise<void> {
  const source = await openSource(opts.place, placeDeps(ctx));
  let digest: string;
  try {
    digest = opts.platform
      ? (await selectImages(source, platformChoice(ctx, opts.platform, false))).top.digest
      : (await source.resolve()).digest;
  } finally {
    await source.close();
  }
  if (ctx.output.json) ctx.output.printJson({ reference: source.name, digest });
  else ctx.output.line(digest);
}
