// Writing a blob to disk while verifying it: bytes go to a partial file and through sha256 as they
// stream; the file is renamed into place only when size and digest match. A partial file is kept
// after a network failure so the next attempt (this run, or the next one) continues with Range;
// after a digest mismatch it is removed, so nothing corrupt is left behind.

import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HubctlError, IntegrityError, NetworkError } from '../errors.js';
import { filesystemError, isSystemError, openPartial, openPartialForRead } from '../files/safe-open.js';
import { READ_CHUNK, WRITE_BATCH } from './io-sizes.js';

/** Opens the blob from `start`; answers where the body really starts (0 when Range was ignored). */
export type BlobOpener = (start: number) => Promise<{ body: Readable; start: number }>;

export interface VerifiedWriteOptions {
  digest: string;
  size: number;
  finalPath: string;
  partialPath: string;
  open: BlobOpener;
  /** Bytes of the blob held so far (absolute), for progress. */
  onProgress?: (have: number) => void;
  /** Attempts after a broken download, each continuing with Range. */
  retries?: number;
  signal?: AbortSignal;
}

/**
 * Hashes what an earlier attempt left in the partial file (never read through a symlink) and
 * answers its size; 0 when there is none. A partial file longer than `max` is emptied.
 */
async function readBack(path: string, hash: Hash, max: number): Promise<number> {
  const fh = await openPartialForRead(path);
  if (!fh) return 0;
  try {
    const { size } = await fh.stat();
    if (size > max) {
      await rm(path, { force: true });
      return 0;
    }
    for await (const chunk of fh.createReadStream({
      highWaterMark: READ_CHUNK,
      autoClose: false,
      end: size - 1,
    }))
      hash.update(chunk as Buffer);
    return size;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

async function hashFile(path: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK }))
    hash.update(chunk as Buffer);
}

/** `sha256:<hex>` of a file's bytes, read as a stream. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await hashFile(path, hash);
  return `sha256:${hash.digest('hex')}`;
}

function isRetryable(err: unknown): boolean {
  if (err instanceof IntegrityError) return false;
  if (err instanceof NetworkError) return true;
  if (err instanceof HubctlError) return false;
  const code = (err as { code?: string })?.code;
  return (
    typeof code === 'string' &&
    /^(ECONNRESET|EPIPE|ETIMEDOUT|UND_ERR_|ERR_STREAM_PREMATURE_CLOSE|ECONNREFUSED)/.test(code)
  );
}

/** A broken connection as a NetworkError (exit 7), keeping typed errors as they are. */
export function asNetworkError(err: unknown, what: string): unknown {
  if (err instanceof HubctlError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new NetworkError(`${what}: the connection broke (${message})`, { cause: err });
}

/** Returns 'resumed' when a partial file from an earlier attempt was continued. */
export async function writeVerifiedBlob(opts: VerifiedWriteOptions): Promise<{ resumedFrom: number }> {
  const { digest, size } = opts;
  const expectedHex = digest.slice('sha256:'.length);
  let hash = createHash('sha256');
  let have = await readBack(opts.partialPath, hash, size);
  const resumedFrom = have;
  opts.onProgress?.(have);
  let attempt = 0;
  for (;;) {
    let opened: Readable | undefined;
    try {
      if (have < size || size === 0) {
        const { body, start } = await opts.open(have);
        opened = body;
        if (start !== have) {
          // The server ignored Range: start over.
          await rm(opts.partialPath, { force: true });
          hash = createHash('sha256');
          have = 0;
        }
        // One writable that hashes and appends: chunks are batched into writev calls of at most
        // about WRITE_BATCH bytes.
        // Appended to only when it is a plain file of its own; created new (O_EXCL) otherwise.
        const fh = await openPartial(opts.partialPath);
        const sink = new Writable({
          highWaterMark: WRITE_BATCH,
          writev(chunks, cb) {
            const bufs: Buffer[] = [];
            for (const { chunk } of chunks) {
              const b = chunk as Buffer;
              if (have + b.length > size) {
                cb(new IntegrityError(`blob ${digest} is larger than the ${size} bytes its descriptor says`));
                return;
              }
              hash.update(b);
              have += b.length;
              bufs.push(b);
            }
            opts.onProgress?.(have);
            fh.writev(bufs).then(() => cb(), cb);
          },
        });
        try {
          await pipeline(body, sink, { signal: opts.signal });
        } finally {
          await fh.close().catch(() => undefined);
        }
        if (have < size)
          throw new NetworkError(`the download of ${digest} ended after ${have} of ${size} bytes`);
      }
      const actual = hash.digest('hex');
      if (actual !== expectedHex) {
        await rm(opts.partialPath, { force: true }).catch(() => undefined);
        throw new IntegrityError(
          `blob ${digest} does not match its digest: the bytes received hash to sha256:${actual}`,
        );
      }
      await rename(opts.partialPath, opts.finalPath).catch((err) => {
        throw filesystemError(err, opts.finalPath, 'cannot write');
      });
      return { resumedFrom };
    } catch (err) {
      // A source the write never read (its partial file refused) is dropped: paused and unread, a
      // registry's GET would hold its connection open with no deadline.
      opened?.destroy();
      if (err instanceof IntegrityError) await rm(opts.partialPath, { force: true }).catch(() => undefined);
      if (opts.signal?.aborted) throw err;
      if (!isRetryable(err)) {
        // A disk that refused a write (read-only, full): one sentence naming the file.
        throw isSystemError(err) ? filesystemError(err, err.path ?? opts.partialPath) : err;
      }
      if (attempt >= (opts.retries ?? 3)) throw asNetworkError(err, `downloading ${digest}`);
      attempt++;
      // Continue from what reached the disk (buffered writes may have been lost with the stream).
      hash = createHash('sha256');
      have = await readBack(opts.partialPath, hash, size);
    }
  }
}
