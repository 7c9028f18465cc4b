import type { BlobAction } from '../output/progress.js';
import type { CarriedReferrer } from './referrer-copy.js';

export interface BlobResult {
  digest: string;
  size: number;
  action: BlobAction;
}

/** The `--json` result of pull, push and copy. */
export interface TransferResult {
  /** The destination as the user wrote it (a registry in its canonical form). */
  reference: string;
  /** The source, likewise. */
  source: string;
  digest: string;
  mediaType: string;
  blobs: BlobResult[];
  /** Docker manifests were converted to OCI: the source's digest, which the destination's replaces. */
  convertedFrom?: string;
  /** With --referrers: the referrers carried along (signatures, SBOMs), each with its subject. */
  referrers?: CarriedReferrer[];
}
