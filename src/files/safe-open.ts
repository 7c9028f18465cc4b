// Opening local files without being led astray: inputs are refused unless they are regular files
// (a FIFO or a device would block or never end), partial files are appended to only when they are
// plain files of their own (never through a symlink or a hard link), and a file system's refusals
// become one sentence that names the path (filesystemError).
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { HubctlError, ValidationError } from '../errors.js';
import { kindOf, notRegular } from './regular.js';

export { kindOf } from './regular.js';

/** The file system refused an operation (permission, read-only, full): exit 1. */
export class FileSystemError extends HubctlError {
  override readonly code = 'FILE_SYSTEM';
}

const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

/**
 * Opens an input for reading: a regular file, or a ValidationError (exit 2) naming what it is.
 * O_NONBLOCK keeps the open of a FIFO from waiting for a writer; fstat then refuses it.
 */
export async function openInput(path: string, what: string): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(path, O_RDONLY | O_NONBLOCK);
  } catch (err) {
    throw filesystemError(err, path, `cannot read ${what}`);
  }
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    throw notRegular(what, path, st);
  }
  return fh;
}

/**
 * Opens a partial (temporary) file to append to: an existing one only when it is a regular file,
 * reached without a symlink and linked once; a missing one is created new (O_EXCL). Anything else
 * is refused with one sentence: a partial file is never written through.
 */
export async function openPartial(path: string, mode = 0o644): Promise<FileHandle> {
  let existing: Stats | undefined;
  try {
    existing = await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw filesystemError(err, path, 'cannot open');
  }
  if (existing && !existing.isFile()) throw unsafePartial(path, kindOf(existing));
  let fh: FileHandle;
  try {
    fh = existing
      ? await open(path, O_WRONLY | O_APPEND | O_NOFOLLOW)
      : await open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw unsafePartial(path, 'a symbolic link');
    if (code === 'EEXIST') throw unsafePartial(path, 'a file another process just created');
    throw filesystemError(err, path, 'cannot write');
  }
  const st = await fh.stat();
  if (!st.isFile() || st.nlink !== 1) {
    await fh.close();
    throw unsafePartial(path, st.isFile() ? 'a file with other hard links' : kindOf(st));
  }
  return fh;
}

/** Opens a partial file to read it back (to hash what an earlier attempt wrote): never through a symlink. */
export async function openPartialForRead(path: string): Promise<FileHandle | undefined> {
  try {
    const fh = await open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    const st = await fh.stat();
    if (!st.isFile() || st.nlink !== 1) {
      await fh.close();
      throw unsafePartial(path, st.isFile() ? 'a file with other hard links' : kindOf(st));
    }
    return fh;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw unsafePartial(path, 'a symbolic link');
    if (err instanceof HubctlError) throw err;
    throw filesystemError(err, path, 'cannot read');
  }
}

function unsafePartial(path: string, what: string): ValidationError {
  return new ValidationError(
    `the partial file ${path} is ${what}: hubctl writes only partial files it created; remove it and run again`,
  );
}

/** Plain words for the errno codes a file system answers with. */
const PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  ENOTDIR: 'a regular file is where a directory should be',
  EISDIR: 'it is a directory, not a file',
  ENOENT: 'no such file or directory',
  EEXIST: 'it already exists',
  ELOOP: 'too many symbolic links (or a symbolic link where none is allowed)',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
  EIO: 'an input/output error',
  EBUSY: 'the file is busy',
  ENOTEMPTY: 'the directory is not empty',
  EXDEV: 'it is on another file system',
};

/** Codes that say the path is not what it must be (exit 2); the others are the file system refusing (exit 1). */
const WRONG_KIND = new Set(['ENOTDIR', 'EISDIR', 'ELOOP', 'ENAMETOOLONG']);

/** Whether `err` is a Node file-system error (errno code and a syscall). */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === 'string' &&
    typeof (err as NodeJS.ErrnoException).syscall === 'string' &&
    /^E[A-Z]+$/.test((err as NodeJS.ErrnoException).code as string)
  );
}

/**
 * A file system's error as one sentence naming the path and the problem: "cannot write
 * /x/blobs/sha256: the file system is read-only". Exit 2 when the path is of the wrong kind (a file
 * where a directory goes, a directory where a file goes), 1 otherwise. HubctlErrors pass as they are.
 */
export function filesystemError(err: unknown, path?: string, doing?: string): HubctlError {
  if (err instanceof HubctlError) return err;
  const e = err as NodeJS.ErrnoException & { dest?: string };
  const code = typeof e?.code === 'string' ? e.code : '';
  const where = path ?? e?.path ?? '';
  const problem = PROBLEMS[code] ?? (code ? `error ${code}` : String((err as Error)?.message ?? err));
  const verb = doing ?? verbFor(e?.syscall);
  const dest = e?.dest && e.syscall === 'rename' ? ` to ${e.dest}` : '';
  const message = `${verb} ${where}${dest}: ${problem}`;
  return WRONG_KIND.has(code)
    ? new ValidationError(message, { cause: err })
    : new FileSystemError(message, { cause: err });
}

function verbFor(syscall: string | undefined): string {
  switch (syscall) {
    case 'mkdir':
      return 'cannot create the directory';
    case 'rename':
      return 'cannot rename';
    case 'unlink':
    case 'rmdir':
    case 'rm':
      return 'cannot remove';
    case 'read':
    case 'scandir':
    case 'stat':
    case 'lstat':
      return 'cannot read';
    case 'write':
    case 'ftruncate':
    case 'fsync':
      return 'cannot write';
    default:
      return 'cannot open';
  }
}
