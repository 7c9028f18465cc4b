// What `image copy` runs with, after its command line is read: shared by copy.ts and the all-tags
// copy (copy-all-tags.ts), which copy.ts calls.
import type { PlaceRef } from '../../ref/transport.js';

export interface CopyOptions {
  src: PlaceRef;
  dst: PlaceRef;
  platform?: string;
  allPlatforms: boolean;
  concurrency: number;
  keepDigests: boolean;
  /** Carry the referrers along (signatures, SBOMs), recursively. */
  referrers?: boolean;
  concurrencyDefault?: boolean;
  /** Every tag of the source repository (both places are registry repositories). */
  allTags?: boolean;
}
