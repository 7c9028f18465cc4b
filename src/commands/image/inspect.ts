import type { Command } from 'commander';
import type { FetchedManifest } from '../../api/registry/client.js';
import { parseImageConfig } from '../../api/registry/manifest.js';
import { type Descriptor, isIndexType } from '../../api/registry/media-types.js';
import type { Context } from '../../context.js';
import { checkSingleImage, fetchConfig } from '../../image/image-config.js';
import { findPlatform } from '../../image/manifest-tree.js';
import { formatPlatform, type PlatformSpec, parsePlatform } from '../../image/platform.js';
import { formatBytes } from '../../output/progress.js';
import {
  formatReference,
  type ImageReference,
  manifestReference,
  parseReference,
} from '../../ref/reference.js';
import { type CommandHost, examples } from '../host.js';
import { registryClient } from './shared.js';

export interface InspectOptions {
  ref: ImageReference;
  platform?: PlatformSpec;
  raw: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('inspect')
    .description('Show a manifest or index: platforms, sizes, config')
    .argument('<ref>', 'image reference (host/repository:tag or @sha256:…)')
    .option('--platform <os/arch[/variant]>', 'picked from an index; a single image must have it')
    .option('--raw', 'print the manifest bytes exactly as the registry sent them')
    .action((ref: string, o: { platform?: string; raw?: boolean }) => {
      const opts: InspectOptions = { ref: parseReference(ref), raw: Boolean(o.raw) };
      if (o.platform) opts.platform = parsePlatform(o.platform);
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image inspect alpine:3.20',
    'hubctl image inspect localhost:5000/team/app:1 --platform linux/arm64 --json',
    'hubctl image inspect localhost:5000/team/app:1 --raw | jq .',
  ]);
}

/** An index entry's platform; a nested index says so, since it may hold several. */
function entryLabel(d: Descriptor): string {
  if (!isIndexType(d.mediaType)) return formatPlatform(d.platform);
  return d.platform ? `${formatPlatform(d.platform)} (index)` : 'index';
}

export async function run(ctx: Context, opts: InspectOptions): Promise<void> {
  const client = await registryClient(ctx);
  const { ref } = opts;
  let m: FetchedManifest = await client.getManifest(ref, manifestReference(ref));
  let configBytes: Buffer | undefined;
  if (opts.platform && m.parsed.kind === 'image') {
    // A single image names its platform only in its config: read it once, for the check and below.
    configBytes = await checkSingleImage({
      client,
      repo: ref,
      what: formatReference(ref),
      config: m.parsed.manifest.config,
      want: opts.platform,
      explicit: true,
    });
  } else if (opts.platform) {
    m = await findPlatform(m, opts.platform, (d) => client.getManifest(ref, d.digest), formatReference(ref));
  }
  if (opts.raw) {
    ctx.output.verbatim(m.bytes.toString('utf8'));
    return;
  }
  const manifest = JSON.parse(m.bytes.toString('utf8')) as unknown;
  const base = {
    reference: formatReference(ref),
    digest: m.digest,
    mediaType: m.mediaType,
    size: m.bytes.length,
  };
  if (m.parsed.kind === 'index') {
    const entries = m.parsed.index.manifests;
    if (ctx.output.json) {
      ctx.output.printJson({ ...base, platforms: entries.map(entryLabel), manifest });
      return;
    }
    await ctx.output.fields([
      ['Reference', base.reference],
      ['Digest', base.digest],
      ['Media type', base.mediaType],
      ['Manifests', entries.length],
    ]);
    if (ctx.output.isTTY) ctx.output.line();
    await ctx.output.table(
      ['PLATFORM', 'DIGEST', { header: 'SIZE', align: 'right' }],
      entries.map((d) => [entryLabel(d), d.digest, d.size]),
    );
    return;
  }
  const img = m.parsed.manifest;
  configBytes ??= await fetchConfig(client, ref, img.config);
  const config = parseImageConfig(configBytes, formatReference(ref), ref.registry);
  const layersSize = img.layers.reduce((s, l) => s + l.size, 0);
  if (ctx.output.json) {
    ctx.output.printJson({ ...base, layersSize, manifest, config });
    return;
  }
  const plat = [config.os, config.architecture, config.variant].filter(Boolean).join('/');
  await ctx.output.fields([
    ['Reference', base.reference],
    ['Digest', base.digest],
    ['Media type', base.mediaType],
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
