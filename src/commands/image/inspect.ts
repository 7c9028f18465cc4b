import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { isImageConfig } from '../../image/image-config.js';
import { openSource } from '../../image/places.js';
import { formatPlatform, parsePlatform } from '../../image/platform.js';
import { readSmallBlob, selectImages } from '../../image/select.js';
import type { StoredManifest } from '../../image/store.js';
import { parseImageConfig } from '../../oci/manifest.js';
import { type Descriptor, isIndexType } from '../../oci/media-types.js';
import { formatBytes } from '../../output/progress.js';
import { PLACE_FORMS, type PlaceRef, parsePlace } from '../../ref/transport.js';
import { type CommandHost, examples } from '../host.js';
import { placeDeps, platformChoice } from './shared.js';

export interface InspectOptions {
  place: PlaceRef;
  platform?: string;
  raw: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('inspect')
    .description('Show a manifest or index: platforms, sizes, config, artifact type, subject, annotations')
    .argument('<ref>', `the image: ${PLACE_FORMS}`)
    .option('--platform <os/arch[/variant]>', 'picked from an index; a single image must have it')
    .option('--raw', 'print the manifest bytes exactly as stored')
    .action((ref: string, o: { platform?: string; raw?: boolean }) => {
      if (ref.startsWith('docker-daemon:')) return inspectInEngine(host, ref, o);
      if (o.platform !== undefined) parsePlatform(o.platform);
      const opts: InspectOptions = { place: parsePlace(ref), raw: Boolean(o.raw), platform: o.platform };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image inspect alpine:3.20',
    'hubctl image inspect localhost:5000/team/app:1 --platform linux/arm64 --json',
    'hubctl image inspect oci-archive:app.tar --raw | jq .',
    'hubctl image inspect docker-daemon:app:1',
  ]);
}

/** An index entry's platform; a nested index says so, since it may hold several. */
function entryLabel(d: Descriptor): string {
  if (!isIndexType(d.mediaType)) return formatPlatform(d.platform);
  return d.platform ? `${formatPlatform(d.platform)} (index)` : 'index';
}

/** The OCI 1.1 fields an artifact or a signature carries. */
function artifactFields(m: StoredManifest): {
  artifactType?: string;
  subject?: Descriptor;
  annotations?: Record<string, string>;
} {
  const doc = (m.parsed.kind === 'index' ? m.parsed.index : m.parsed.manifest) as {
    artifactType?: unknown;
    subject?: Descriptor;
    annotations?: Record<string, string>;
  };
  const configType = m.parsed.kind === 'image' ? m.parsed.manifest.config.mediaType : undefined;
  const artifactType = typeof doc.artifactType === 'string' ? doc.artifactType : undefined;
  return {
    // An artifact without artifactType is typed by its config (OCI image spec 1.1).
    ...(artifactType
      ? { artifactType }
      : configType && !/image\.(config\.)?v1\+json$/.test(configType)
        ? { artifactType: configType }
        : {}),
    ...(doc.subject && typeof doc.subject.digest === 'string' ? { subject: doc.subject } : {}),
    ...(doc.annotations && typeof doc.annotations === 'object' ? { annotations: doc.annotations } : {}),
  };
}

function extraRows(extra: ReturnType<typeof artifactFields>): [string, string][] {
  const rows: [string, string][] = [];
  if (extra.artifactType) rows.push(['Artifact type', extra.artifactType]);
  if (extra.subject) rows.push(['Subject', `${extra.subject.digest} (${extra.subject.mediaType})`]);
  for (const [k, v] of Object.entries(extra.annotations ?? {})) rows.push([`Annotation ${k}`, String(v)]);
  return rows;
}

/**
 * An image config through its schema: from a registry a wrong one is an unexpected answer (exit 7),
 * from a file invalid input (exit 2). An artifact's config need not be JSON: shown as nothing.
 */
function readConfig(place: PlaceRef, what: string, d: Descriptor, bytes: Buffer): Record<string, unknown> {
  if (!isImageConfig(d)) return {};
  if (place.transport === 'registry') return parseImageConfig(bytes, what, place.ref.registry);
  try {
    return parseImageConfig(bytes, what, 'the file');
  } catch (err) {
    throw new ValidationError(`${what}: the image config is not valid`, { cause: err });
  }
}

/** The engine's own view of an image (its API has no manifest to show raw or pick a platform from). */
function inspectInEngine(host: CommandHost, ref: string, o: { platform?: string; raw?: boolean }) {
  if (o.platform || o.raw) {
    throw new UsageError('--platform and --raw apply to registries and files, not to docker-daemon: images');
  }
  const place = parsePlace(ref);
  const name = place.transport === 'docker-daemon' ? place.ref : ref;
  return host.run(async (ctx) => (await import('./engine-inspect.js')).runEngineInspect(ctx, name));
}

export async function run(ctx: Context, opts: InspectOptions): Promise<void> {
  const source = await openSource(opts.place, placeDeps(ctx));
  try {
    await show(ctx, opts, source);
  } finally {
    await source.close();
  }
}

async function show(ctx: Context, opts: InspectOptions, source: Awaited<ReturnType<typeof openSource>>) {
  // Without --platform the manifest the reference names, as it is; with one, the same selection
  // as pull and copy.
  const sel = opts.platform
    ? await selectImages(source, platformChoice(ctx, opts.platform, false))
    : { top: await source.getManifest(await source.resolve()), config: undefined };
  const m = sel.top;
  if (opts.raw) {
    ctx.output.verbatim(m.bytes.toString('utf8'));
    return;
  }
  const manifest = JSON.parse(m.bytes.toString('utf8')) as unknown;
  const extra = artifactFields(m);
  const base = {
    reference: source.name,
    digest: m.digest,
    mediaType: m.mediaType,
    size: m.bytes.length,
    ...extra,
  };
  const head: [string, string | number][] = [
    ['Reference', base.reference],
    ['Digest', base.digest],
    ['Media type', base.mediaType],
  ];
  if (m.parsed.kind === 'index') {
    const entries = m.parsed.index.manifests;
    if (ctx.output.json) {
      ctx.output.printJson({ ...base, platforms: entries.map(entryLabel), manifest });
      return;
    }
    await ctx.output.fields([...head, ...extraRows(extra), ['Manifests', entries.length]]);
    if (ctx.output.isTTY) ctx.output.line();
    await ctx.output.table(
      ['PLATFORM', 'DIGEST', { header: 'SIZE', align: 'right' }],
      entries.map((d) => [entryLabel(d), d.digest, d.size]),
    );
    return;
  }
  const img = m.parsed.manifest;
  const configBytes = sel.config?.bytes ?? (await readSmallBlob(source, img.config));
  const config = readConfig(opts.place, source.name, img.config, configBytes);
  const layersSize = img.layers.reduce((s, l) => s + l.size, 0);
  if (ctx.output.json) {
    ctx.output.printJson({ ...base, layersSize, manifest, config });
    return;
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const plat = [str(config.os), str(config.architecture), str(config.variant)].filter(Boolean).join('/');
  await ctx.output.fields([
    ...head,
    ...extraRows(extra),
    ['Platform', plat || 'unknown'],
    ['Created', typeof config.created === 'string' ? ctx.output.time(config.created) : ''],
    ['Config', img.config.digest],
    ['Layers', `${img.layers.length} (${formatBytes(layersSize)})`],
  ]);
  if (ctx.output.isTTY) ctx.output.line();
  await ctx.output.table(
    ['LAYER', 'MEDIA TYPE', { header: 'SIZE', align: 'right' }],
    img.layers.map((l) => [l.digest, l.mediaType, l.size]),
  );
}
