// One put per blob and destination repository across the transfers of many tags at once (`image
// copy --all-tags`, `image sync`): tags of one repository share most of their blobs, so the first
// tag's put is the one that sends a blob and the later tags wait for it and count it as skipped.
// Besides saving the bytes, this avoids a race in distribution 2.8: two uploads of one blob to one
// repository at once can leave a manifest PUT refused (DIGEST_INVALID). A failed put is not
// shared: a tag that waited for it, and any later tag, puts the blob itself.

import type { Descriptor } from '../oci/media-types.js';
import type { BlobAction, TransferProgress } from '../output/progress.js';
import type { BlobFeed, ImageDestination } from './store.js';

export class BlobsOnce {
  private readonly puts = new Map<string, Promise<BlobAction>>();

  /** `dest` with its blob puts shared with the other destinations wrapped for `repo`. */
  wrap(dest: ImageDestination, repo: string): ImageDestination {
    const puts = this.puts;
    const wrapped: ImageDestination = {
      name: dest.name,
      accepts: dest.accepts,
      multiPlatform: dest.multiPlatform,
      maxConcurrency: dest.maxConcurrency,
      hasBlob: (d) => dest.hasBlob(d),
      async putBlob(d: Descriptor, feed: BlobFeed, progress: TransferProgress): Promise<BlobAction> {
        const key = `${repo} ${d.digest}`;
        const first = puts.get(key);
        if (
          first &&
          (await first.then(
            () => true,
            () => false,
          ))
        ) {
          progress.done(d.digest, d.size, 'skipped');
          return 'skipped';
        }
        const put = dest.putBlob(d, feed, progress);
        puts.set(key, put);
        return put;
      },
      putManifest: (m, top) => dest.putManifest(m, top),
      commit: () => dest.commit(),
      abort: (reason) => dest.abort(reason),
    };
    if (dest.putReferrer) wrapped.putReferrer = dest.putReferrer.bind(dest);
    return wrapped;
  }
}
