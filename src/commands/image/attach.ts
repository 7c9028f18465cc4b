import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { formatReference } from '../../ref/reference.js';
import { PLACE_FORMS, type PlaceRef, parsePlace } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { artifactTypeOption } from './referrers.js';
import { placeDeps } from './shared.js';

export interface AttachOptions {
  place: PlaceRef;
  artifactType: string;
  files: string[];
  annotations: Record<string, string>;
}

/** Files attached at most, and annotations. */
const MAX_FILES = 100;
const MAX_ANNOTATIONS = 64;

/** `--annotation key=value`, repeatable. */
export function annotationOption(
  value: string,
  previous: Record<string, string> = {},
): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq < 1) throw new UsageError(`--annotation takes key=value (got "${value.slice(0, 60)}")`);
  const key = value.slice(0, eq);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,255}$/.test(key))
    throw new UsageError(
      `--annotation: "${key.slice(0, 60)}" is not an annotation key (letters, digits, . _ -)`,
    );
  if (key in previous) throw new UsageError(`--annotation ${key} is given twice`);
  if (Object.keys(previous).length >= MAX_ANNOTATIONS)
    throw new UsageError(`--annotation: at most ${MAX_ANNOTATIONS} annotations`);
  return { ...previous, [key]: value.slice(eq + 1) };
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('attach')
    .description(
      'Push files as an artifact that points at an image (an SBOM, a scan report), as oras attach does',
    )
    .argument('<ref>', `the image: ${PLACE_FORMS} (a registry or oci:DIR)`)
    .argument('<files...>', 'files to attach, one layer each (titled with the base name)')
    .requiredOption(
      '--artifact-type <type>',
      'the artifact type (application/spdx+json, …)',
      artifactTypeOption,
    )
    .option(
      '--annotation <key=value>',
      'an annotation of the artifact manifest (repeatable)',
      annotationOption,
    )
    .action(
      (ref: string, files: string[], o: { artifactType: string; annotation?: Record<string, string> }) => {
        const place = parsePlace(ref);
        if (place.transport !== 'registry' && place.transport !== 'oci')
          throw new UsageError(
            `referrers are kept in a registry or an oci:DIR layout, not in ${place.transport}:`,
          );
        if (files.length > MAX_FILES) throw new UsageError(`attach takes at most ${MAX_FILES} files`);
        const opts: AttachOptions = {
          place,
          artifactType: o.artifactType,
          files,
          annotations: o.annotation ?? {},
        };
        return host.run((ctx) => runner(ctx, opts));
      },
    );
  return examples(cmd, [
    'hubctl image attach localhost:5000/team/app:1 --artifact-type application/spdx+json sbom.spdx.json',
    'hubctl image attach localhost:5000/team/app:1 --artifact-type application/sarif+json scan.sarif --annotation org.example.scanner=trivy',
    'hubctl image attach oci:./app:1 --artifact-type application/spdx+json sbom.spdx.json --json',
  ]);
}

export async function run(ctx: Context, opts: AttachOptions): Promise<void> {
  const { openDestination, openSource } = await import('../../image/places.js');
  const { attach } = await import('../../image/attach.js');
  const deps = placeDeps(ctx);
  const source = await openSource(opts.place, deps);
  let subject: Awaited<ReturnType<typeof source.resolve>>;
  try {
    subject = await source.resolve();
  } finally {
    await source.close().catch(() => undefined);
  }
  const destination = await openDestination(opts.place, opts.place, deps);
  const progress = { begin() {}, update() {}, done() {}, stop() {} };
  const done = await attach(
    destination,
    { subject, artifactType: opts.artifactType, files: opts.files, annotations: opts.annotations },
    progress,
  );
  ctx.debug(
    `the artifact is listed ${done.via === 'api' ? 'by the referrers API' : 'in the fallback tag sha256-<hex>'}`,
  );
  if (ctx.output.json) {
    ctx.output.printJson(done);
    return;
  }
  ctx.output.info(`Attached ${done.artifactType} to ${subject.digest}.`);
  const where =
    opts.place.transport === 'registry'
      ? formatReference({ registry: opts.place.ref.registry, repository: opts.place.ref.repository })
      : opts.place.transport === 'oci'
        ? `oci:${opts.place.path}`
        : '';
  ctx.output.line(`${where}@${done.digest}`);
}
