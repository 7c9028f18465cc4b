// Inputs that must be regular files, synchronously and with node:fs alone (policy files are read
// on `policy eval`'s fast start, where node:fs/promises would cost a tenth of the start-up).
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { ValidationError } from '../errors.js';

/** What a non-regular file is, in words. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFile()) return 'a regular file';
  return 'not a regular file';
}

export function notRegular(what: string, path: string, st: Stats): ValidationError {
  return new ValidationError(`${what} ${path} is ${kindOf(st)}, not a regular file`);
}

/** Opens an input to read, synchronously: a regular file, or a ValidationError (exit 2) naming what it is. */
export function openInputSync(path: string, what: string, onError: (err: unknown) => Error): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw onError(err);
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw notRegular(what, path, st);
  }
  return fd;
}
