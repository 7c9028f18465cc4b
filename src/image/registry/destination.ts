// A registry repository as a destination. Blobs go through upload.ts (HEAD to skip; mount from the
// source's repository or one known to hold the blob; monolithic or chunked upload, resumed from the
// registry's Range and from the state an earlier run saved). A source that cannot be re-read
// cheaply (another registry) is sent in one request and verified while it streams.

import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { RegistryClient } from '../../api/registry/client.js';
import { IntegrityError, NetworkError, NotFoundError, ValidationError } from '../../errors.js';
import { tapped } from '../../http/body.js';
import { type Descriptor, OCI_INDEX } from '../../oci/media-types.js';
import type { BlobAction, TransferProgress } from '../../output/progress.js';
import { formatReference, type ImageReference } from '../../ref/reference.js';
import {
  fallbackTag,
  indexBytes,
  type ReferrersVia,
  referrerDescriptor,
  subjectOf,
  withReferrer,
} from '../referrers.js';
import type { BlobFeed, ImageDestination, StoredManifest, StreamedBlob } from '../store.js';
import type { BlobMemory } from './known-blobs.js';
import { streamBlob } from './streamed-upload.js';
import { cancelOpenUploads, type OpenUpload, pushBlob } from './upload.js';
import type { UploadStateStore } from './upload-state.js';

export interface RegistryDestinationOptions {
  signal: AbortSignal;
  uploads?: UploadStateStore;
  known?: BlobMemory;
  monolithicMax?: number;
  chunkSize?: number;
  /** Blobs up to this size are probed by a mount POST instead of a HEAD (upload.ts). */
  probeByMountMax?: number;
  note?: (line: string) => void;
}

export class RegistryDestination implements ImageDestination {
  readonly name: string;
  readonly accepts = 'any';
  readonly multiPlatform = true;
  readonly maxConcurrency = 32;
  readonly digest?: string;
  private readonly open = new Set<OpenUpload>();
  private readonly written: string[] = [];
  /** Blobs uploaded while their source made them (streamBlob). */
  private readonly streamed = new Set<string>();
  /** The last fallback tag update of each subject. */
  private readonly fallbackWrites = new Map<string, Promise<void>>();

  constructor(
    private readonly client: RegistryClient,
    private readonly ref: ImageReference,
    private readonly opts: RegistryDestinationOptions,
  ) {
    this.name = formatReference(ref);
    this.digest = ref.digest;
  }

  async hasBlob(d: Descriptor): Promise<boolean> {
    return (await this.client.headBlob(this.ref, d.digest, ['pull', 'push'])) !== undefined;
  }

  async streamBlob(
    blob: StreamedBlob,
    progress: TransferProgress,
  ): Promise<{ digest: string; size: number }> {
    const sent = await streamBlob(
      {
        client: this.client,
        repo: this.ref,
        progress,
        signal: this.opts.signal,
        open: this.open,
        note: this.opts.note,
      },
      blob,
    );
    // One the registry held already is answered by putBlob as any other (skipped).
    if (sent.sent) this.streamed.add(sent.digest);
    return { digest: sent.digest, size: sent.size };
  }

  async putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction> {
    if (this.streamed.has(d.digest)) {
      progress.done(d.digest, d.size, 'pushed');
      this.written.push(d.digest);
      return 'pushed';
    }
    const from = feed.repository;
    const sameRegistry =
      from && from.registry === this.ref.registry && from.repository !== this.ref.repository;
    const once = !feed.rereadable;
    const action = await pushBlob(
      {
        client: this.client,
        repo: this.ref,
        progress,
        signal: this.opts.signal,
        open: this.open,
        uploads: this.opts.uploads,
        known: this.opts.known,
        mountFrom: sameRegistry ? from.repository : undefined,
        monolithicMax: once ? Number.POSITIVE_INFINITY : this.opts.monolithicMax,
        chunkSize: once ? Number.POSITIVE_INFINITY : this.opts.chunkSize,
        probeByMountMax: this.opts.probeByMountMax,
        note: this.opts.note,
      },
      d.digest,
      d.size,
      async (start, end) => {
        const { body, start: got } = await feed.open(start, end < d.size ? end : undefined);
        if (got !== start) {
          body.destroy();
          throw new NetworkError(`${d.digest}: the source could not start at byte ${start}`);
        }
        // The whole blob is verified here; a continued one by the registry on completion.
        if (start === 0 && once) return verified(body, d);
        return body;
      },
    );
    this.written.push(d.digest);
    return action;
  }

  async putManifest(m: StoredManifest, top: boolean): Promise<string> {
    const reference = top ? (this.ref.tag ?? this.ref.digest ?? m.digest) : m.digest;
    return this.client.putManifest(this.ref, reference, m.bytes, m.mediaType);
  }

  async putReferrer(m: StoredManifest): Promise<ReferrersVia> {
    const pushed = await this.client.pushManifest(this.ref, m.digest, m.bytes, m.mediaType);
    if (pushed.subjectIndexed) return 'api';
    const subject = subjectOf(m);
    if (!subject) return 'api';
    // Referrers of one subject written by this run update its fallback tag one after the other.
    const before = this.fallbackWrites.get(subject) ?? Promise.resolve();
    const write = before.then(() => this.addToFallbackTag(subject, referrerDescriptor(m)));
    this.fallbackWrites.set(
      subject,
      write.catch(() => undefined),
    );
    await write;
    return 'tag';
  }

  /** Read-modify-write of the fallback tag's index (a concurrent writer may win: see README). */
  private async addToFallbackTag(subject: string, d: Descriptor): Promise<void> {
    const tag = fallbackTag(subject);
    const current = await this.client.getManifest(this.ref, tag).catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (current && current.parsed.kind !== 'index')
      throw new ValidationError(
        `${this.name}: the referrers fallback tag ${tag} names an image, not an index`,
      );
    const next = withReferrer(current?.parsed.kind === 'index' ? current.parsed.index : undefined, d);
    if (!next) return;
    this.opts.note?.(`referrers of ${subject}: updating the fallback tag ${tag} (no referrers API)`);
    await this.client.putManifest(this.ref, tag, indexBytes(next), OCI_INDEX);
  }

  async commit(): Promise<void> {
    await this.opts.known
      ?.remember(this.ref.registry, this.ref.repository, this.written)
      .catch(() => undefined);
  }

  async abort(): Promise<void> {
    // Ctrl-C cancels what is open; a broken connection leaves the uploads for the next run.
    if (this.opts.signal.aborted) await cancelOpenUploads(this.client, this.open, this.opts.uploads);
  }
}

/**
 * Fails the stream (and so the upload) when the bytes do not hash to the digest: a tap on the
 * body's one relay (http/body.ts), hashed in the same callback that passes each chunk on.
 */
function verified(body: Readable, d: Descriptor): Readable {
  const hash = createHash('sha256');
  let n = 0;
  return tapped(body, {
    chunk(chunk) {
      n += chunk.length;
      // Past its size, no later byte can make it right: failed here, before the upload has it all
      // (else the upload's own length check fails first, as a broken connection, and is retried).
      if (n > d.size)
        return new IntegrityError(
          `blob ${d.digest} from the source is larger than the ${d.size} bytes its descriptor says`,
        );
      hash.update(chunk);
      return undefined;
    },
    end() {
      const actual = `sha256:${hash.digest('hex')}`;
      if (n !== d.size || actual !== d.digest)
        return new IntegrityError(
          `blob ${d.digest} from the source does not match its digest (got ${actual}, ${n} bytes)`,
        );
      return undefined;
    },
  });
}
