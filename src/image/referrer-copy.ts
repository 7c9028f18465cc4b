// `--referrers` on copy, pull and push: after the subject's manifests, what points at them
// (signatures, SBOMs, attestations) goes along through the same store interface, and what points
// at those too (a signature of an SBOM), breadth first. Referrers are copied byte for byte (never
// converted): a signature signs the digest. Each is listed at the destination by putReferrer (the
// registry's referrers API, else the fallback tag).

import { UsageError, ValidationError } from '../errors.js';
import type { Descriptor } from '../oci/media-types.js';
import type { TransferProgress } from '../output/progress.js';
import { runPool } from '../pool.js';
import { blobsOf, manifestsBelow } from './manifest-tree.js';
import { artifactTypeOf, type ReferrersVia } from './referrers.js';
import type { ImageDestination, ImageSource, StoredManifest } from './store.js';

/** Referrers carried at most in one run, and the depth of referrers of referrers. */
export const MAX_CARRIED_REFERRERS = 1000;
export const MAX_REFERRER_DEPTH = 8;

export interface CarriedReferrer {
  digest: string;
  subject: string;
  artifactType?: string;
  /** How the destination lists it. */
  via: ReferrersVia;
}

export interface CarryOptions {
  progress: TransferProgress;
  concurrency: number;
  /** A line for --debug: how the source knows the referrers of each subject. */
  note?: (line: string) => void;
}

/** Whether both places can carry referrers; a sentence for the user when not. */
export function checkReferrerSupport(source: ImageSource, destination: ImageDestination): void {
  if (!source.referrers)
    throw new UsageError(`--referrers: ${source.name} cannot hold referrers (a registry or oci:DIR can)`);
  if (!destination.putReferrer)
    throw new UsageError(
      `--referrers: ${destination.name} cannot hold referrers (a registry or oci:DIR can)`,
    );
}

export async function carryReferrers(
  source: ImageSource,
  destination: ImageDestination,
  subjects: readonly string[],
  opts: CarryOptions,
): Promise<CarriedReferrer[]> {
  checkReferrerSupport(source, destination);
  const list = source.referrers!.bind(source);
  const put = destination.putReferrer!.bind(destination);
  const carried: CarriedReferrer[] = [];
  const seen = new Set<string>(subjects);
  let level = [...subjects];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth >= MAX_REFERRER_DEPTH)
      throw new ValidationError(
        `${source.name}: referrers of referrers go deeper than ${MAX_REFERRER_DEPTH} levels`,
      );
    const next: string[] = [];
    for (const subject of level) {
      const found = await list(subject);
      opts.note?.(
        `referrers of ${subject}: ${found.descriptors.length} from ${found.via === 'api' ? 'the referrers API' : 'the fallback tag'}`,
      );
      for (const d of found.descriptors) {
        if (seen.has(d.digest)) continue;
        seen.add(d.digest);
        if (carried.length >= MAX_CARRIED_REFERRERS)
          throw new ValidationError(`${source.name}: more than ${MAX_CARRIED_REFERRERS} referrers to carry`);
        const m = await source.getManifest(d);
        const via = await copyOne(source, destination, m, opts, put);
        const artifactType = artifactTypeOf(m);
        carried.push({ digest: m.digest, subject, ...(artifactType ? { artifactType } : {}), via });
        next.push(m.digest);
      }
    }
    level = next;
  }
  return carried;
}

/** One referrer: its blobs, the manifests below it (an index), then itself. */
async function copyOne(
  source: ImageSource,
  destination: ImageDestination,
  m: StoredManifest,
  opts: CarryOptions,
  put: (m: StoredManifest) => Promise<ReferrersVia>,
): Promise<ReferrersVia> {
  const below = await manifestsBelow(m, (d) => source.getManifest(d), source.name);
  const blobs = blobsOf([m, ...below]);
  const limit = Math.max(1, Math.min(opts.concurrency, destination.maxConcurrency));
  await runPool(blobs, limit, (d: Descriptor) =>
    destination.putBlob(
      d,
      {
        open: (start, end) => source.openBlob(d, start, end),
        rereadable: source.rereadable,
        repository: source.repository,
      },
      opts.progress,
    ),
  );
  for (const b of below) await destination.putManifest(b, false);
  return put(m);
}

/** What points at the manifest a source's reference names (`image referrers`). */
export async function referrersOf(
  source: ImageSource,
  artifactType?: string,
): Promise<{ subject: Descriptor; via: ReferrersVia; descriptors: Descriptor[] }> {
  if (!source.referrers)
    throw new UsageError(`${source.name} cannot hold referrers (a registry or oci:DIR can)`);
  try {
    const subject = await source.resolve();
    const found = await source.referrers(subject.digest, artifactType);
    return { subject, ...found };
  } finally {
    await source.close().catch(() => undefined);
  }
}
