// The store interface: what one transfer needs of a place an image lives in. Every kind of place
// (a registry, an OCI layout, an OCI archive, a docker archive, the engine) is one back end behind
// these two interfaces, as in containers/image; transfer.ts moves an image from any source to any
// destination and owns platform choice, skipping, conversion and progress. A back end owns its own
// details: staging, locks, resume state, index.json, tar layout.
//
// Digests are `sha256:<hex>`. Manifests are handed over as bytes and never re-serialised by a back
// end, so a digest stays what the source said unless the transfer converts (see `accepts`).

import type { Readable } from 'node:stream';
import type { Descriptor } from '../oci/media-types.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
import type { RepositoryName } from '../ref/reference.js';
import type { TreeManifest } from './manifest-tree.js';

/** A manifest or index: its bytes, digest, media type and parsed form. */
export type StoredManifest = TreeManifest;

/** A blob's bytes from an offset. */
export interface BlobRead {
  body: Readable;
  /** Where the body starts: the offset asked for, or 0 when the place cannot seek. */
  start: number;
  /**
   * From a network source: within how long the body, read into memory whole (a config), must
   * arrive in all (the HTTP layer's bound on any body it reads into memory). A local one needs none.
   */
  deadlineMs?: number;
}

/** Where an image is read from. */
export interface ImageSource {
  /** The place as the user wrote it (`oci:./build:1`), for messages. */
  readonly name: string;
  /** A blob can be read again cheaply (a local file) rather than only by downloading it again. */
  readonly rereadable: boolean;
  /** The registry repository this source is, when it is one (lets a destination mount blobs). */
  readonly repository?: RepositoryName;
  /** The descriptor the reference names: the top manifest or index. */
  resolve(): Promise<Descriptor>;
  /** A manifest or index by descriptor, its bytes checked against the digest. */
  getManifest(d: Descriptor): Promise<StoredManifest>;
  /**
   * A blob from `start` (default 0) up to `end` (exclusive, default the blob's end); the reader
   * verifies the digest. A source that is not `rereadable` is only asked for whole blobs or their
   * tails (`end` unset), so it may answer from `start` to the end, or from 0 (`start` says).
   */
  openBlob(d: Descriptor, start?: number, end?: number): Promise<BlobRead>;
  /** Releases what the source holds open (an engine's export stream, say). */
  close(): Promise<void>;
  /**
   * Optional, called before resolve(): blobs the source makes on the way (an engine's layers,
   * gzip-compressed as the export is read) go to `write` as they are made, so that they are not
   * staged; their digests are known only once written. Blobs written so are not asked for again.
   */
  streamTo?(write: StreamedBlobWriter): void;
  /**
   * Optional (registries, OCI layouts): what points at the manifest `subject` (OCI referrers), of
   * one artifact type or all; `via` says how the place knows (the referrers API, the fallback tag).
   */
  referrers?(subject: string, artifactType?: string): Promise<ReferrerList>;
}

/** A blob made while it is written: its digest and size are learned from the bytes. */
export interface StreamedBlob {
  /**
   * The bytes, from the start, each call afresh (the same bytes every time): a failed upload is
   * begun again from here, never by sending a request body twice.
   */
  open(): Promise<Readable>;
  /**
   * The blob an earlier run made of the same bytes (a layer's diff_id): a destination that holds
   * it answers it, once `checked`, without being sent anything.
   */
  known?: { digest: string; size: number };
  /** What the bytes are made from (a layer's diff_id) and its size: the progress until done. */
  label: string;
  estimate: number;
  /**
   * Settles once the source has checked what it made the blob from (the layer against the config's
   * diff_id, which comes last): the blob is committed only after; a rejection cancels it.
   */
  checked: Promise<void>;
}

export type StreamedBlobWriter = (blob: StreamedBlob) => Promise<{ digest: string; size: number }>;

/** How a destination takes a blob: from its source, from an offset, plus what a mount needs. */
export interface BlobFeed {
  open(start: number, end?: number): Promise<BlobRead>;
  /** The source's `rereadable` and `repository`, as hints. */
  rereadable: boolean;
  repository?: RepositoryName;
}

/** Where an image is written. */
export interface ImageDestination {
  readonly name: string;
  /**
   * Manifest formats the place stores: `any` keeps the source's bytes; `oci` means docker v2
   * manifests are converted to OCI media types (the digest changes) unless the user keeps digests.
   */
  readonly accepts: 'any' | 'oci';
  /** Holds an index and several platforms (false: one image manifest only). */
  readonly multiPlatform: boolean;
  /** Blobs written at once at most (1 for a tar written front to back). */
  readonly maxConcurrency: number;
  /**
   * The digest the destination's reference names (`repo@sha256:…`): the image written must have
   * it. The transfer checks it before any blob is written.
   */
  readonly digest?: string;
  /** Whether the place already holds the blob, with the right bytes where it can tell cheaply. */
  hasBlob(d: Descriptor): Promise<boolean>;
  /**
   * Writes a blob unless present; verifies it; reports progress (begin/update/done) and answers
   * what it did: pushed or pulled, skipped, mounted.
   */
  putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction>;
  /**
   * Optional: writes a blob whose digest is learned from its bytes (see ImageSource.streamTo).
   * putBlob of a digest written so answers what was done, without writing it again.
   */
  streamBlob?(blob: StreamedBlob, progress: TransferProgress): Promise<{ digest: string; size: number }>;
  /**
   * Stores a manifest. Manifests below the top come first, children before their index; the top
   * one comes last with `top: true` and is put under the destination's tag. Answers the digest.
   */
  putManifest(m: StoredManifest, top: boolean): Promise<string>;
  /**
   * Optional (registries, OCI layouts): stores a manifest that has a `subject`, by digest, and lists
   * it among its subject's referrers: the registry's referrers API does, else the fallback tag's
   * index is updated (read-modify-write). Its blobs and the manifests below it were put before.
   * Answers how the referrer was listed. Called before commit.
   */
  putReferrer?(m: StoredManifest): Promise<ReferrersVia>;
  /** Makes the image visible (index.json, the archive's rename): nothing is named before. */
  commit(): Promise<void>;
  /**
   * After a failure (`reason`) or Ctrl-C: removes what commit would have made visible, cancels
   * uploads; what helps a later run continue (a partial download) may stay.
   */
  abort(reason?: unknown): Promise<void>;
}

// Adding a place: one entry in PLACES, the table of src/ref/transport.ts (its prefix, forms, help
// words, how its text is read and written back, its tag), from which the PlaceRef union, the parser,
// the formatter and the commands' help derive; and a back end file or folder under src/image/
// exporting functions that build an ImageSource and/or an ImageDestination from that PlaceRef,
// opened by one case in src/image/places.ts (openSource/openDestination, which commands call, do
// not compile until the new kind has its case).

/** How a place knows a manifest's referrers. */
export type ReferrersVia = 'api' | 'tag';

export interface ReferrerList {
  /** 'api': the registry's referrers API; 'tag': the fallback tag's index. */
  via: ReferrersVia;
  descriptors: Descriptor[];
}
