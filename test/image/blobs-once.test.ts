// One put per blob and destination repository across tags in flight (image copy --all-tags, image
// sync): later tags wait for the first put and count the blob as skipped; a failed put is not
// shared; another repository puts its own.
import { describe, expect, it } from 'vitest';
import { BlobsOnce } from '../../src/image/blobs-once.js';
import type { ImageDestination } from '../../src/image/store.js';
import type { BlobAction, TransferProgress } from '../../src/output/progress.js';

const blob = { mediaType: 'application/octet-stream', digest: `sha256:${'a'.repeat(64)}`, size: 3 };

function destination(results: Array<() => Promise<BlobAction>>) {
  const puts: string[] = [];
  const dest: ImageDestination = {
    name: 'r/x',
    accepts: 'any',
    multiPlatform: true,
    maxConcurrency: 4,
    hasBlob: async () => false,
    putBlob: (d) => {
      puts.push(d.digest);
      const next = results.shift();
      if (!next) throw new Error('an unexpected put');
      return next();
    },
    putManifest: async () => 'sha256:m',
    commit: async () => undefined,
    abort: async () => undefined,
  };
  return { dest, puts };
}

function progress() {
  const done: string[] = [];
  const p: TransferProgress = {
    begin() {},
    update() {},
    done: (_d, _s, action) => done.push(action),
    stop() {},
  };
  return { p, done };
}

const feed = {} as never;

describe('BlobsOnce', () => {
  it('puts a blob once per repository: a tag in flight waits for the first put, then skips it', async () => {
    let finish!: (a: BlobAction) => void;
    const { dest, puts } = destination([() => new Promise((r) => (finish = r))]);
    const once = new BlobsOnce();
    const a = progress();
    const b = progress();
    const first = once.wrap(dest, 'r/x').putBlob(blob, feed, a.p);
    const second = once.wrap(dest, 'r/x').putBlob(blob, feed, b.p);
    await new Promise((r) => setTimeout(r, 10));
    expect(b.done).toEqual([]); // still waiting
    finish('pushed');
    expect(await first).toBe('pushed');
    expect(await second).toBe('skipped');
    expect(b.done).toEqual(['skipped']);
    expect(puts).toEqual([blob.digest]);
  });

  it('a failed put is not shared: the tag that waited puts the blob itself', async () => {
    const { dest, puts } = destination([
      async () => {
        throw new Error('reset');
      },
      async () => 'pushed',
    ]);
    const once = new BlobsOnce();
    const first = once.wrap(dest, 'r/x').putBlob(blob, feed, progress().p);
    const second = once.wrap(dest, 'r/x').putBlob(blob, feed, progress().p);
    await expect(first).rejects.toThrow('reset');
    expect(await second).toBe('pushed');
    expect(puts).toEqual([blob.digest, blob.digest]);
  });

  it('another repository puts its own copy; the rest of the destination passes through', async () => {
    const { dest, puts } = destination([async () => 'pushed', async () => 'mounted']);
    const once = new BlobsOnce();
    expect(await once.wrap(dest, 'r/x').putBlob(blob, feed, progress().p)).toBe('pushed');
    const other = once.wrap(dest, 'r/y');
    expect(await other.putBlob(blob, feed, progress().p)).toBe('mounted');
    expect(puts).toHaveLength(2);
    expect([other.name, other.accepts, other.multiPlatform, other.maxConcurrency]).toEqual([
      'r/x',
      'any',
      true,
      4,
    ]);
    expect(await other.putManifest({} as never, true)).toBe('sha256:m');
    expect(other.putReferrer).toBeUndefined();
  });
});
