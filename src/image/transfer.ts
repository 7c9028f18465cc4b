// The one transfer: any source to any destination (store.ts). It selects platforms once
// (select.ts), converts docker manifests for places that hold only OCI ones, writes every blob once
// with bounded concurrency (the destination skips, mounts, resumes and verifies), then the
// manifests, children before the index that lists them, the top one last; then commits. A failure
// or Ctrl-C aborts the destination, which leaves nothing named.

import { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import type { Descriptor } from '../oci/media-types.js';
import type { TransferProgress } from '../output/progress.js';
import { runPool } from '../pool.js';
import { convertToOci, needsConversion } from './convert.js';
import { blobsOf } from './manifest-tree.js';
import { carryReferrers, checkReferrerSupport } from './referrer-copy.js';
import { type PlatformChoice, selectImages } from './select.js';
import type { ImageDestination, ImageSource } from './store.js';
import type { BlobResult, TransferResult } from './types.js';

export interface TransferOptions {
  platforms: PlatformChoice;
  progress: TransferProgress;
  /** Blobs in flight at once (the destination may allow fewer). */
  concurrency?: number;
  /** Keep docker manifests as they are in an OCI-only place (digests kept; skopeo cannot read it). */
  keepDigests?: boolean;
  /** Notes for the user (a single image of another platform than the default one). */
  notice?: (line: string) => void;
  /** Carry the referrers of the manifests copied (signatures, SBOMs), recursively; digests kept. */
  referrers?: boolean;
  /** Lines for --debug. */
  note?: (line: string) => void;
}

export async function transfer(
  source: ImageSource,
  destination: ImageDestination,
  opts: TransferOptions,
): Promise<TransferResult> {
  try {
    // A source that makes blobs on the way (the engine's compressed layers) sends them as it goes.
    const stream = destination.streamBlob?.bind(destination);
    if (source.streamTo && stream) source.streamTo((blob) => stream(blob, opts.progress));
    if (opts.referrers) checkReferrerSupport(source, destination);
    let sel = await selectImages(source, opts.platforms, opts.notice);
    if (sel.top.parsed.kind === 'index' && !destination.multiPlatform)
      throw new UsageError(
        `${destination.name} holds one image: pick a platform (--platform) or write to oci:DIR or oci-archive:FILE`,
      );
    // Referrers name their subject by digest: with them, docker manifests are kept as they are.
    const converted =
      destination.accepts === 'oci' && !opts.keepDigests && !opts.referrers && needsConversion(sel);
    const original = sel.top.digest;
    if (converted) sel = convertToOci(sel);
    // A destination named by digest takes exactly that image: say so before a blob is sent.
    if (destination.digest !== undefined && destination.digest !== sel.top.digest) {
      throw new UsageError(
        `${destination.name} names ${destination.digest}, but the image to write is ${sel.top.digest}: name the destination by a tag, or by the image's own digest`,
      );
    }
    const config = sel.config;
    const limit = Math.max(1, Math.min(opts.concurrency ?? 4, destination.maxConcurrency));
    const fromMemory = (d: Descriptor) => config !== undefined && d.digest === config.digest;
    const put = async (d: Descriptor): Promise<BlobResult> => {
      const action = await destination.putBlob(
        d,
        {
          // The config read for the platform check is sent from memory, not read again.
          open: async (start, end) =>
            config && fromMemory(d)
              ? { body: Readable.from([config.bytes.subarray(start, end)]), start }
              : source.openBlob(d, start, end),
          rereadable: source.rereadable || fromMemory(d),
          repository: source.repository,
        },
        opts.progress,
      );
      return { digest: d.digest, size: d.size, action };
    };
    const all = blobsOf(sel.images);
    // The config, sent from memory, takes no slot of the pool when the destination allows one more:
    // with 4 layers and 4 slots, the last layer no longer starts after it (and ends 20-50 ms after
    // the others). --concurrency 1 stays one blob at a time.
    const aside = limit > 1 && limit < destination.maxConcurrency ? all.filter(fromMemory) : [];
    let asideFailed: { err: unknown } | undefined;
    const settled = await Promise.allSettled([
      Promise.all(aside.map(put)).catch((err: unknown) => {
        asideFailed = { err };
        throw err;
      }),
      // A failed config stops the pool from starting more blobs, as a failed blob in it would.
      runPool(
        all.filter((d) => !aside.includes(d)),
        limit,
        async (d) => {
          if (asideFailed) throw asideFailed.err;
          return put(d);
        },
      ),
    ]);
    for (const s of settled) if (s.status === 'rejected') throw s.reason;
    const done = new Map<string, BlobResult>();
    for (const s of settled) if (s.status === 'fulfilled') for (const b of s.value) done.set(b.digest, b);
    const blobs = all.map((d) => done.get(d.digest) as BlobResult);
    for (const m of sel.below) await destination.putManifest(m, false);
    const digest = await destination.putManifest(sel.top, true);
    const referrers = opts.referrers
      ? await carryReferrers(source, destination, [sel.top.digest, ...sel.below.map((m) => m.digest)], {
          progress: opts.progress,
          concurrency: limit,
          note: opts.note,
        })
      : undefined;
    await destination.commit();
    return {
      reference: destination.name,
      source: source.name,
      digest,
      mediaType: sel.top.mediaType,
      blobs,
      ...(converted ? { convertedFrom: original } : {}),
      ...(referrers ? { referrers } : {}),
    };
  } catch (err) {
    await destination.abort(err).catch(() => undefined);
    throw err;
  } finally {
    await source.close().catch(() => undefined);
  }
}
