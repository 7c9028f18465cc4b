// Whole-file writes that a reader never sees half done: a temporary sibling created new (never
// through a symlink or into a file that exists), fsync, rename. The one atomic write of hubctl:
// config and state files, OCI layouts' index.json and small blobs, the image state stores.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { ValidationError } from '../errors.js';
import { filesystemError } from './safe-open.js';

const tmpName = (path: string) => `${path}.tmp-${randomBytes(6).toString('hex')}`;

/** Writes `data` to `path` atomically, the file getting exactly `mode` (whatever the umask). */
export function writeFileAtomicSync(path: string, data: string, mode: number): void {
  const tmp = tmpName(path);
  const fd = openSync(tmp, 'wx', mode);
  try {
    fchmodSync(fd, mode);
    writeSync(fd, data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
}

/**
 * The same without blocking, the file's mode left to the umask. Failures are one sentence naming
 * the path (filesystemError); a directory where the file goes is invalid input (exit 2).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = tmpName(path);
  let fh: FileHandle;
  try {
    fh = await open(tmp, 'wx');
  } catch (err) {
    throw filesystemError(err, tmp, 'cannot write');
  }
  try {
    await fh.writeFile(data);
    await fh.sync();
    await fh.close();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw filesystemError(err, tmp, 'cannot write');
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST')
      throw new ValidationError(`${path} is a directory, not a file`, { cause: err });
    throw filesystemError(err, path, 'cannot write');
  }
}
