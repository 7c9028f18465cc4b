import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { LockBusyError, tryLock, withLock, withLockSync } from '../../src/files/lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'hubctl-lock-'));
/** A pid that no process has: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('withLock', () => {
  it('lets one read-modify-write run at a time: 40 overlapping increments lose none', async () => {
    const file = join(dir(), 'counter');
    writeFileSync(file, '0');
    await Promise.all(
      Array.from({ length: 40 }, () =>
        withLock(file, async () => {
          const n = Number(readFileSync(file, 'utf8'));
          await new Promise((r) => setTimeout(r, 1));
          writeFileSync(file, String(n + 1));
        }),
      ),
    );
    expect(readFileSync(file, 'utf8')).toBe('40');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('releases the lock when the body throws, and passes the error on', async () => {
    const file = join(dir(), 'f');
    await expect(withLock(file, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(() =>
      withLockSync(file, () => {
        throw new Error('sync boom');
      }),
    ).toThrow('sync boom');
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(withLockSync(file, () => 7)).toBe(7);
  });

  it('gives up after its wait with "another hubctl is writing <file>" (exit 6) while a live run holds it', async () => {
    const file = join(dir(), 'index.json');
    writeFileSync(`${file}.lock`, `${process.pid} ${hostname()} ${Date.now()} abcd`);
    const started = Date.now();
    const err = await withLock(file, () => 1, { waitMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockBusyError);
    expect((err as LockBusyError).message).toBe(`another hubctl is writing ${file}`);
    expect((err as LockBusyError).exitCode).toBe(ExitCode.CONFLICT);
    expect((err as LockBusyError).hint).toContain(`${file}.lock`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(() => withLockSync(file, () => 1, { waitMs: 100 })).toThrow(LockBusyError);
    // The holder's lock is left alone.
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it('takes over a lock whose process is gone, at once', async () => {
    const d = dir();
    const file = join(d, 'credentials.json');
    writeFileSync(`${file}.lock`, `${deadPid()} ${hostname()} ${Date.now()} dead`);
    const started = Date.now();
    expect(await withLock(file, () => 'mine', { waitMs: 2000 })).toBe('mine');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(readdirSync(d)).toEqual([]);
  });

  it('takes over a lock older than the stale age, even from another host or a live pid', () => {
    const file = join(dir(), 'f');
    writeFileSync(`${file}.lock`, `${process.pid} other-host ${Date.now() - 60_000} old`);
    expect(withLockSync(file, () => 'ok', { waitMs: 1000 })).toBe('ok');
    // An empty lock file (a run killed between create and write) is judged by its mtime.
    writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    expect(withLockSync(file, () => 'ok again', { waitMs: 1000 })).toBe('ok again');
  });

  it('waits for a fresh lock of another host rather than breaking it', () => {
    const file = join(dir(), 'f');
    writeFileSync(`${file}.lock`, `1 other-host ${Date.now()} fresh`);
    expect(() => withLockSync(file, () => 1, { waitMs: 150 })).toThrow(LockBusyError);
  });
});

describe('tryLock', () => {
  it("takes a dead run's lock over at once (a download after SIGKILL), and not a live one's", () => {
    const file = join(dir(), 'blob.partial');
    writeFileSync(`${file}.lock`, `${deadPid()} ${hostname()} ${Date.now()} abcd`);
    const release = tryLock(file, 24 * 60 * 60 * 1000);
    expect(release).toBeTypeOf('function');
    expect(readFileSync(`${file}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    expect(tryLock(file)).toBeUndefined(); // held by this live process now
    release!();
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(readdirSync(join(file, '..')).filter((n) => n.includes('stale'))).toEqual([]);
  });
});
