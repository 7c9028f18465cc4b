// Whole-file writes that a reader never sees half done: a temporary sibling created new (never
// through a symlink or into a file that exists), fsync, rename. The one atomic write of hubctl:
// config and state files, OCI layouts' index.json and small blobs, the image state stores.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ValidationError } from '../errors.js';
import { filesystemError } from './safe-open.js';

const tmpName = (path: string) => `${path}.tmp-${randomBytes(6).toString('hex')}`;
const TMP_SUFFIX = /^\.tmp-[0-9a-f]{12}$/;

/**
 * Writes `data` to `path` atomically, the file getting exactly `mode` (whatever the umask). Its
 * callers hold the file's lock (files/lock.ts), so a temporary of this file that is there now was
 * left by a run killed between create and rename: it is removed first. Such a leftover of
 * credentials.json would keep a secret that `auth logout` removed.
 */
export function writeFileAtomicSync(path: string, data: string, mode: number): void {
  removeLeftoverTemporaries(path);
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

/** Removes the temporaries of `path` (`PATH.tmp-` and 12 hex digits) that dead runs left beside it. */
function removeLeftoverTemporaries(path: string): void {
  const dir = dirname(path);
  const file = basename(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // the write that follows says what is wrong with the folder
  }
  for (const name of names) {
    if (name.startsWith(file) && TMP_SUFFIX.test(name.slice(file.length)))
      rmSync(join(dir, name), { force: true });
  }
}
