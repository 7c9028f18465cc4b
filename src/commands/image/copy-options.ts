// What `image copy` runs with, after its command line is read: shared by copy.ts and the all-tags
// copy (copy-all-tags.ts), which copy.ts calls.
import type { PlaceRef } from '../../ref/transport.js';
import type { TransferSettings } from './transfer-options.js';

export interface CopyOptions extends TransferSettings {
  src: PlaceRef;
  dst: PlaceRef;
  /** Every tag of the source repository (both places are registry repositories). */
  allTags?: boolean;
}
