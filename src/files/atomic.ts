// Whole-file writes that a reader never sees half done: a temporary sibling, fsync, rename.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';

/** Writes `data` to `path` atomically, the file getting exactly `mode` (whatever the umask). */
export function writeFileAtomicSync(path: string, data: string, mode: number): void {
  const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
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
