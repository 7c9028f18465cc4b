// image copy: registry to registry, streaming each blob from the source's GET into the destination's
// upload without touching disk (verified against its digest on the way); within one registry,
// blobs are mounted. With --all-platforms the whole index tree is copied, nested indexes too
// (children before the index that lists them); digests are kept.

import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { RegistryClient } from '../api/registry/client.js';
import { IntegrityError } from '../errors.js';
import type { TransferProgress } from '../output/progress.js';
import { formatReference, type ImageReference } from '../ref/reference.js';
import { checkSingleImage } from './image-config.js';
import { blobsOf } from './manifest-tree.js';
import type { PlatformSpec } from './platform.js';
import { runPool } from './pool.js';
import { resolveImages } from './pull.js';
import type { KnownBlobs } from './resume-state.js';
import type { BlobResult, TransferResult } from './types.js';
import { cancelOpenUploads, type OpenUpload, pushBlob } from './upload.js';

export interface CopyOptions {
  client: RegistryClient;
  src: ImageReference;
  dst: ImageReference;
  platform: PlatformSpec;
  /** The user named the platform: a single image of another one is refused. */
  platformExplicit?: boolean;
  allPlatforms?: boolean;
  progress: TransferProgress;
  signal: AbortSignal;
  concurrency?: number;
  known?: KnownBlobs;
  note?: (line: string) => void;
}

export async function copyImage(opts: CopyOptions): Promise<TransferResult> {
  const { client, src, dst } = opts;
  const { top, below, images, singleConfig } = await resolveImages(
    client,
    src,
    opts.platform,
    Boolean(opts.allPlatforms),
  );
  // Only a platform the user named is checked: a copy does not run the image.
  const configDesc = opts.platformExplicit ? singleConfig : undefined;
  const config =
    configDesc &&
    (await checkSingleImage({
      client,
      repo: src,
      what: formatReference(src),
      config: configDesc,
      want: opts.platform,
      explicit: true,
    }));
  const sameRegistry = src.registry === dst.registry && src.repository !== dst.repository;
  const open = new Set<OpenUpload>();
  const uc = {
    client,
    repo: dst,
    progress: opts.progress,
    signal: opts.signal,
    open,
    known: opts.known,
    mountFrom: sameRegistry ? src.repository : undefined,
    // A stream from another registry cannot be re-read cheaply: send it in one request.
    monolithicMax: Number.POSITIVE_INFINITY,
    chunkSize: Number.POSITIVE_INFINITY,
    note: opts.note,
  };
  let results: BlobResult[];
  try {
    results = await runPool(blobsOf(images), opts.concurrency ?? 4, async (d) => {
      const action = await pushBlob(uc, d.digest, d.size, async (start, end) => {
        // The config was read for the platform check: send those bytes rather than GET it again.
        if (config && d.digest === configDesc?.digest) return Readable.from([config.subarray(start, end)]);
        const { body } = await client.getBlob(src, d.digest, start);
        // The whole blob is verified here; a continued one by the registry on completion.
        if (start > 0) return body;
        const checked = verifier(d.digest, d.size);
        body.on('error', (err) => checked.destroy(err));
        return body.pipe(checked);
      });
      return { digest: d.digest, size: d.size, action };
    });
  } catch (err) {
    if (opts.signal.aborted) await cancelOpenUploads(client, open);
    throw err;
  }
  await opts.known
    ?.remember(
      dst.registry,
      dst.repository,
      results.map((r) => r.digest),
    )
    .catch(() => undefined);

  for (const m of below) await client.putManifest(dst, m.digest, m.bytes, m.mediaType);
  const digest = await client.putManifest(dst, dst.tag ?? dst.digest ?? top.digest, top.bytes, top.mediaType);
  return { reference: formatReference(dst), digest, mediaType: top.mediaType, blobs: results };
}

/** Fails the stream (and so the upload) when the bytes do not hash to the digest. */
function verifier(digest: string, size: number): Transform {
  const hash = createHash('sha256');
  let n = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      n += chunk.length;
      cb(null, chunk);
    },
    flush(cb) {
      const actual = `sha256:${hash.digest('hex')}`;
      if (n !== size || actual !== digest) {
        cb(
          new IntegrityError(
            `blob ${digest} from the source does not match its digest (got ${actual}, ${n} bytes)`,
          ),
        );
      } else cb();
    },
  });
}
