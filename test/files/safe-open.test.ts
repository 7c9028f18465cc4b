// One sentence for each file-system refusal, naming the path (issue 20, item 10), and partial
// files that are opened only when they are plain files of their own (item 8).
import { linkSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { FileSystemError, filesystemError, openInput, openPartial } from '../../src/files/safe-open.js';

const sysErr = (code: string, syscall: string, path: string) =>
  Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path, errno: -1 });

describe('filesystemError', () => {
  it.each([
    ['EROFS', 'open', '/l/blobs/sha256/x', 'cannot open /l/blobs/sha256/x: the file system is read-only', 1],
    ['EACCES', 'mkdir', '/l/blobs', 'cannot create the directory /l/blobs: permission denied', 1],
    ['ENOSPC', 'write', '/l/f', 'cannot write /l/f: no space left on the device', 1],
    [
      'ENOTDIR',
      'open',
      '/l/blobs/sha256/x',
      'cannot open /l/blobs/sha256/x: a regular file is where a directory should be',
      2,
    ],
    ['EISDIR', 'open', '/l/index.json', 'cannot open /l/index.json: it is a directory, not a file', 2],
  ])('%s from %s is one sentence with exit code', (code, syscall, path, message, exit) => {
    const err = filesystemError(sysErr(code, syscall, path));
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(exit);
    expect(err).toBeInstanceOf(exit === 1 ? FileSystemError : ValidationError);
  });
});

describe('openPartial and openInput', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'hubctl-safe-open-'));

  it('creates a partial file new, and appends to one that is a plain file of its own', async () => {
    const p = join(dir(), '.x.partial');
    let fh = await openPartial(p);
    await fh.write('ab');
    await fh.close();
    fh = await openPartial(p);
    await fh.write('cd');
    await fh.close();
    expect(readFileSync(p, 'utf8')).toBe('abcd');
  });

  it('refuses a symlink or a hard link, and leaves its target alone', async () => {
    const d = dir();
    const victim = join(d, 'victim');
    writeFileSync(victim, 'v');
    symlinkSync(victim, join(d, 'sym.partial'));
    linkSync(victim, join(d, 'hard.partial'));
    await expect(openPartial(join(d, 'sym.partial'))).rejects.toThrow(/is a symbolic link/);
    await expect(openPartial(join(d, 'hard.partial'))).rejects.toThrow(/is a file with other hard links/);
    // A symlink to nowhere is not followed into a new file either.
    symlinkSync(join(d, 'nowhere'), join(d, 'dangling.partial'));
    await expect(openPartial(join(d, 'dangling.partial'))).rejects.toThrow(/is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('v');
  });

  it('openInput refuses a directory and a device, naming what they are', async () => {
    await expect(openInput(dir(), 'archive')).rejects.toThrow(/is a directory, not a regular file$/);
    await expect(openInput('/dev/null', 'archive')).rejects.toThrow(
      'archive /dev/null is a character device, not a regular file',
    );
  });
});
