// A blob uploaded while it is made (a layer gzip-compressed on its way from the engine): POST, one
// PATCH streaming the bytes (chunked, no length: the API's stream upload, as skopeo sends), then
// PUT ?digest= with the digest of what was sent, once the source has checked what it made the blob
// from. The registry verifies the digest at the PUT. A broken upload is cancelled and begun again
// from the blob's start (StreamedBlob.open), never by sending a request body again; a later run
// cannot continue it (its digest was not known when it began), so no state is saved for one.

import { createHash, type Hash } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import type { RegistryClient } from '../../api/registry/client.js';
import { UnexpectedAnswerError } from '../../errors.js';
import type { TransferProgress } from '../../output/progress.js';
import type { RepositoryName } from '../../ref/reference.js';
import type { StreamedBlob } from '../store.js';
import { asNetworkError } from '../verified-write.js';
import { isRetryable, MAX_FAILURES, type OpenUpload, PUSH } from './upload.js';

export interface StreamedUploadContext {
  client: RegistryClient;
  repo: RepositoryName;
  progress: TransferProgress;
  signal: AbortSignal;
  /** Uploads in flight, cancelled (DELETE) when the run is interrupted. */
  open: Set<OpenUpload>;
  note?: (line: string) => void;
}

/** Hashes and counts what passes. */
function hashing(body: Readable, hash: Hash, onBytes: (n: number) => void): Transform {
  let n = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      n += chunk.length;
      onBytes(n);
      cb(null, chunk);
    },
  });
  body.on('error', (err) => t.destroy(err));
  t.on('close', () => body.destroy()); // a stopped upload stops the source's work too
  return body.pipe(t);
}

export async function streamBlob(
  uc: StreamedUploadContext,
  blob: StreamedBlob,
): Promise<{ digest: string; size: number; sent: boolean }> {
  const { client, repo, progress } = uc;
  // The source found the blob is not what it should be: stop sending at once.
  let refused: { err: unknown } | undefined;
  let sending: Transform | undefined;
  blob.checked.catch((err: unknown) => {
    refused = { err };
    sending?.destroy();
  });
  // A blob an earlier run made of the same bytes and the registry holds: nothing to send.
  const known = blob.known;
  if (known && (await client.headBlob(repo, known.digest, PUSH)) === known.size) {
    await blob.checked;
    return { ...known, sent: false };
  }
  let failures = 0;
  for (;;) {
    let entry: OpenUpload | undefined;
    let digest: string | undefined;
    let size = 0;
    try {
      const started = await client.startUpload(repo);
      if (started.mounted)
        throw new UnexpectedAnswerError(
          `starting an upload to ${repo.registry}/${repo.repository}: unexpected answer from ${repo.registry}: a mount (201) where none was asked`,
        );
      entry = { repo, location: started.location, digest: blob.label };
      uc.open.add(entry);
      progress.begin(blob.label, blob.estimate);
      const hash = createHash('sha256');
      sending = hashing(await blob.open(), hash, (n) => {
        size = n;
        progress.update(blob.label, n);
      });
      if (refused) sending.destroy();
      const next = await client.streamUpload(repo, entry.location, sending);
      entry.location = next.location;
      await blob.checked;
      digest = `sha256:${hash.digest('hex')}`;
      await client.completeUpload(repo, entry.location, digest);
      uc.open.delete(entry);
      progress.relabel?.(blob.label, digest, size);
      return { digest, size, sent: true };
    } catch (err) {
      sending?.destroy();
      if (entry) {
        uc.open.delete(entry);
        await client.cancelUpload(repo, entry.location).catch(() => undefined);
      }
      if (refused) throw refused.err;
      if (uc.signal.aborted || !isRetryable(err)) throw err;
      // A lost answer to the PUT: the registry may hold the blob already.
      if (digest && (await client.headBlob(repo, digest, PUSH).catch(() => undefined)) !== undefined) {
        progress.relabel?.(blob.label, digest, size);
        return { digest, size, sent: true };
      }
      if (++failures > MAX_FAILURES) throw asNetworkError(err, `pushing a layer (${blob.label})`);
      uc.note?.(
        `upload of the layer whose diff_id is ${blob.label} broke (${(err as Error).message}); starting it again`,
      );
    }
  }
}
