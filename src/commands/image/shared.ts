// What the image verbs share: the places' dependencies built from the context, the platform
// choice, the state stores, the one transfer with its progress display, and its result.

import { arch, platform } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { CompressedLayers } from '../../image/engine/compressed-layers.js';
import { BETWEEN_REGISTRIES, openDestination, openSource, type PlaceDeps } from '../../image/places.js';
import { type PlatformSpec, parsePlatform, platformOf } from '../../image/platform.js';
import { BatchedKnownBlobs, KnownBlobs } from '../../image/registry/known-blobs.js';
import { UploadStateStore } from '../../image/registry/upload-state.js';
import type { PlatformChoice } from '../../image/select.js';
import { transfer } from '../../image/transfer.js';
import type { TransferResult } from '../../image/types.js';
import { createTransferProgress } from '../../output/progress.js';
import type { PlaceRef } from '../../ref/transport.js';
import type { TransferSettings } from './transfer-options.js';

/** `--platform`, else HUBCTL_PLATFORM, else this machine's (linux/<arch>). */
export function wantedPlatform(ctx: Context, flag: string | undefined): PlatformSpec {
  if (flag !== undefined) return parsePlatform(flag);
  if (ctx.env.HUBCTL_PLATFORM) return parsePlatform(ctx.env.HUBCTL_PLATFORM);
  return platformOf(platform(), arch());
}

export function stores(ctx: Context): {
  uploads: UploadStateStore;
  known: KnownBlobs;
  compressed: CompressedLayers;
} {
  const dir = ctx.stateDir();
  return {
    uploads: new UploadStateStore(join(dir, 'uploads'), () => ctx.clock.now()),
    known: new KnownBlobs(join(dir, 'known-blobs.json')),
    compressed: new CompressedLayers(join(dir, 'compressed-layers.json')),
  };
}

/** Size knobs for uploads (bytes), from the environment; tests use small ones. */
export function uploadSizes(ctx: Context): { monolithicMax?: number; chunkSize?: number } {
  const num = (name: string): number | undefined => {
    const v = ctx.env[name];
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v) || Number(v) < 1)
      throw new UsageError(`${name} must be a whole number of bytes (got "${v}")`);
    return Number(v);
  };
  return { monolithicMax: num('HUBCTL_MONOLITHIC_MAX'), chunkSize: num('HUBCTL_CHUNK_SIZE') };
}

/** What a place needs from the context: the registry client, state stores, upload sizes. */
export function placeDeps(ctx: Context): PlaceDeps {
  return {
    registry: () => ctx.registry(),
    engine: () => ctx.engine(),
    signal: ctx.signal,
    ...stores(ctx),
    ...uploadSizes(ctx),
    note: note(ctx),
    notice: (line) => ctx.output.info(line),
    // HUBCTL_REGISTRY_MIRRORS=off reads from the registries themselves.
    mirrorFor: async (registry) =>
      ctx.env.HUBCTL_REGISTRY_MIRRORS === 'off'
        ? undefined
        : (await ctx.registrySettings()).get(registry.toLowerCase())?.mirror?.host,
  };
}

/**
 * Blobs at once for a transfer between these places: --concurrency when given, else the smallest
 * `registry.HOST.concurrency` of the registries involved, else `fallback`.
 */
export async function concurrencyFor(
  ctx: Context,
  places: readonly PlaceRef[],
  given: number | undefined,
  fallback = 4,
): Promise<number> {
  if (given !== undefined) return given;
  const settings = await ctx.registrySettings();
  const limits = places
    .filter((p) => p.transport === 'registry')
    .map((p) => settings.get(p.ref.registry.toLowerCase())?.concurrency)
    .filter((n): n is number => n !== undefined);
  return limits.length > 0 ? Math.min(...limits) : fallback;
}

/** `--all-platforms`, `--platform P`, or this machine's (HUBCTL_PLATFORM in tests). */
export function platformChoice(ctx: Context, flag: string | undefined, all: boolean): PlatformChoice {
  if (all) return { kind: 'all' };
  return { kind: 'one', platform: wantedPlatform(ctx, flag), explicit: flag !== undefined };
}

export interface TransferRequest extends Omit<TransferSettings, 'keepDigests'> {
  src: PlaceRef;
  dst: PlaceRef;
  keepDigests?: boolean;
  /** Which place the result names (a pull names its source, as docker pull does). */
  names?: 'source' | 'destination';
}

/** Runs the one transfer with the progress display, then prints the result (pull, push, copy). */
export async function runTransfer(ctx: Context, verb: string, req: TransferRequest): Promise<TransferResult> {
  const deps = placeDeps(ctx);
  // What the source read and the destination wrote is remembered in one write of the state file
  // (a lock, a read, an fsync and a rename) at the end, not one for each side.
  const known = deps.known ? new BatchedKnownBlobs(deps.known) : undefined;
  if (known) deps.known = known;
  try {
    return await transferAndPrint(ctx, verb, req, deps);
  } finally {
    await known?.flush();
  }
}

async function transferAndPrint(
  ctx: Context,
  verb: string,
  req: TransferRequest,
  deps: PlaceDeps,
): Promise<TransferResult> {
  // Between registries, as in image sync (places.ts): 16 requests → 12 for a copy of one layer.
  if (req.src.transport === 'registry' && req.dst.transport === 'registry')
    Object.assign(deps, BETWEEN_REGISTRIES);
  const platforms = platformChoice(ctx, req.platform, req.allPlatforms);
  const source = await openSource(req.src, deps);
  const destination = await openDestination(req.dst, req.src, deps).catch(async (err) => {
    await source.close().catch(() => undefined);
    throw err;
  });
  const progress = await createTransferProgress(ctx.io, { json: ctx.globals.json, quiet: ctx.globals.quiet });
  let result: TransferResult;
  try {
    result = await transfer(source, destination, {
      platforms,
      progress,
      concurrency: await concurrencyFor(
        ctx,
        [req.src, req.dst],
        req.concurrencyDefault ? undefined : req.concurrency,
        req.concurrency,
      ),
      keepDigests: req.keepDigests,
      notice: (line) => ctx.output.info(line),
      referrers: req.referrers,
      note: note(ctx),
    });
  } finally {
    progress.stop();
  }
  if (req.names === 'source') result = { ...result, reference: result.source, source: result.reference };
  printTransfer(ctx, verb, result);
  return result;
}

export function note(ctx: Context): (line: string) => void {
  return (line) => ctx.debug(line);
}

/** The result of pull, push and copy: JSON, or `reference@digest` on stdout and a summary on stderr. */
export function printTransfer(ctx: Context, verb: string, result: TransferResult): void {
  if (ctx.output.json) {
    const { reference, digest, blobs, convertedFrom, referrers } = result;
    ctx.output.printJson({
      reference,
      digest,
      blobs,
      ...(convertedFrom ? { convertedFrom } : {}),
      ...(referrers ? { referrers } : {}),
    });
    return;
  }
  if (result.referrers)
    ctx.output.info(
      `Carried ${result.referrers.length} referrer${result.referrers.length === 1 ? '' : 's'} (signatures, SBOMs) with their digests.`,
    );
  if (result.convertedFrom)
    ctx.output.info(
      `Converted to OCI media types for ${result.reference}: the digest is ${result.digest}, not ${result.convertedFrom} (--keep-digests keeps the docker manifest).`,
    );
  const counts = new Map<string, number>();
  for (const b of result.blobs) counts.set(b.action, (counts.get(b.action) ?? 0) + 1);
  const summary = [...counts].map(([a, n]) => `${n} ${a}`).join(', ');
  ctx.output.info(
    `${verb} ${result.reference} (${result.blobs.length} blobs${summary ? `: ${summary}` : ''})`,
  );
  ctx.output.line(`${result.reference.replace(/@sha256:[a-f0-9]{64}$/, '')}@${result.digest}`);
}
