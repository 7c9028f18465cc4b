import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { PLACE_FORMS, type PlaceRef, parsePlace } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { placeDeps } from './shared.js';

export interface ReferrersOptions {
  place: PlaceRef;
  artifactType?: string;
}

/** A media type as OCI writes them: type/subtype, no spaces or control characters. */
export function artifactTypeOption(value: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/.test(value))
    throw new UsageError(
      `--artifact-type must be a media type such as application/spdx+json (got "${value.slice(0, 60)}")`,
    );
  return value;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('referrers')
    .description('List what points at an image (OCI referrers: signatures, SBOMs, attestations)')
    .argument('<ref>', `the image: ${PLACE_FORMS} (a registry or oci:DIR)`)
    .option('--artifact-type <type>', 'only referrers of this artifact type', artifactTypeOption)
    .action((ref: string, o: { artifactType?: string }) => {
      const place = parsePlace(ref);
      if (place.transport !== 'registry' && place.transport !== 'oci')
        throw new UsageError(
          `referrers are kept in a registry or an oci:DIR layout, not in ${place.transport}:`,
        );
      const opts: ReferrersOptions = { place, artifactType: o.artifactType };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image referrers localhost:5000/team/app:1',
    'hubctl image referrers localhost:5000/team/app:1 --artifact-type application/spdx+json --json',
    'hubctl image referrers oci:./app:1',
  ]);
}

export async function run(ctx: Context, opts: ReferrersOptions): Promise<void> {
  const { openSource } = await import('../../image/places.js');
  const { referrersOf } = await import('../../image/referrer-copy.js');
  const source = await openSource(opts.place, placeDeps(ctx));
  const found = await referrersOf(source, opts.artifactType);
  ctx.debug(
    `referrers of ${found.subject.digest}: ${found.via === 'api' ? 'the referrers API (/v2/<name>/referrers/<digest>)' : 'the fallback tag sha256-<hex>'}`,
  );
  const referrers = found.descriptors.map((d) => ({
    digest: d.digest,
    mediaType: d.mediaType,
    artifactType: d.artifactType ?? null,
    size: d.size,
    annotations: d.annotations ?? {},
  }));
  if (ctx.output.json) {
    ctx.output.printJson({ subject: found.subject.digest, via: found.via, referrers });
    return;
  }
  if (referrers.length === 0) {
    ctx.output.info(
      `Nothing points at ${found.subject.digest}${opts.artifactType ? ` with artifact type ${opts.artifactType}` : ''}.`,
    );
    return;
  }
  await ctx.output.table(
    ['DIGEST', 'ARTIFACT TYPE', { header: 'SIZE', align: 'right' }, 'ANNOTATIONS'],
    referrers.map((r) => [
      r.digest,
      r.artifactType ?? '',
      r.size,
      Object.entries(r.annotations)
        .map(([k, v]) => `${k}=${v}`)
        .join(', '),
    ]),
  );
}
