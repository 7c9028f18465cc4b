// What distribution 2.8 allows when a push is resumed (README "image"): an upload continues from the
// `_state` of the registry's last answer when no byte of a later chunk reached it, and is gone
// (cancelled by the registry: "upload resumed at wrong offest") once a PATCH was cut mid-body.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { type OpenUpload, pushBlob } from '../../../src/image/registry/upload.js';
import { UploadStateStore } from '../../../src/image/registry/upload-state.js';
import type { TransferProgress } from '../../../src/output/progress.js';
import { describeWithRegistry } from '../../support/registry.js';
import { useRegistryWorld } from '../../support/registry-world.js';

const KiB = 1024;
const silent: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };

describeWithRegistry('resuming a push against distribution 2.8', () => {
  const world = useRegistryWorld('resume/app');
  const { repo } = world;

  /** A blob, a first chunk PATCHed and saved as a killed run would have left it. */
  async function firstChunkSaved(uploads: UploadStateStore) {
    const blob = randomBytes(300 * KiB);
    const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
    const started = await world.client.startUpload(repo);
    if (started.mounted) throw new Error('not a mount');
    const first = await world.client.patchUpload(
      repo,
      started.location,
      blob.subarray(0, 100 * KiB),
      0,
      100 * KiB,
    );
    expect(first.offset).toBe(100 * KiB);
    await uploads.save({ ...repo, digest, location: first.location, offset: first.offset });
    return { blob, digest, first };
  }

  const push = (uploads: UploadStateStore, blob: Buffer, digest: string, notes: string[]) =>
    pushBlob(
      {
        client: world.client,
        repo,
        progress: silent,
        signal: new AbortController().signal,
        open: new Set<OpenUpload>(),
        uploads,
        monolithicMax: 64 * KiB,
        chunkSize: 100 * KiB,
        note: (l) => notes.push(l),
      },
      digest,
      blob.length,
      (start, end) => Promise.resolve(Readable.from([blob.subarray(start, end)])),
    );

  it('stopped between chunks: the next push continues at the confirmed offset', async () => {
    const uploads = new UploadStateStore(mkdtempSync(join(tmpdir(), 'hubctl-resume-')), () => Date.now());
    const { blob, digest } = await firstChunkSaved(uploads);
    const notes: string[] = [];
    expect(await push(uploads, blob, digest, notes)).toBe('pushed');
    expect(notes[0]).toBe(`continuing the upload of ${digest} left by an earlier run at byte ${100 * KiB}`);
    expect(await world.client.headBlob(repo, digest)).toBe(blob.length);
  });

  it('killed inside a chunk: 2.8 has cancelled the upload, and the next push starts the blob again', async () => {
    const uploads = new UploadStateStore(mkdtempSync(join(tmpdir(), 'hubctl-resume-')), () => Date.now());
    const { blob, digest, first } = await firstChunkSaved(uploads);
    // The second chunk's body breaks after 40 KiB, as when the process is killed mid-PATCH.
    const cut = new Readable({
      read() {
        this.push(blob.subarray(100 * KiB, 140 * KiB));
        setTimeout(() => this.destroy(new Error('killed')), 50);
      },
    });
    await expect(world.client.patchUpload(repo, first.location, cut, 100 * KiB, 100 * KiB)).rejects.toThrow();
    // The registry kept the 40 KiB it got: the saved `_state` (offset 100 KiB) no longer matches.
    const notes: string[] = [];
    expect(await push(uploads, blob, digest, notes)).toBe('pushed');
    expect(notes[0]).toBe(`the registry no longer has the earlier upload of ${digest}; starting again`);
    expect(await world.client.headBlob(repo, digest)).toBe(blob.length);
  });
});
