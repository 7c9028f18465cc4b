import type { BlobAction } from '../output/progress.js';

export interface BlobResult {
  digest: string;
  size: number;
  action: BlobAction;
}

/** The `--json` result of pull, push and copy. */
export interface TransferResult {
  reference: string;
  digest: string;
  mediaType: string;
  blobs: BlobResult[];
}
