// One lock per shared file, so that concurrent hubctl runs (CI jobs, shells) never lose each
// other's writes: `withLock(file, fn)` runs fn while holding `<file>.lock`.
//
// A plain lock file created with O_EXCL ('wx'), not a library: the config store is synchronous and
// proper-lockfile (the well-kept choice) takes a lock synchronously only without retries, so a
// concurrent run would fail at once instead of waiting. O_EXCL is atomic on local file systems and
// on NFSv3+. The file holds "pid host time"; it is stale, and taken over, when its process is gone
// (same host) or when it is older than STALE_MS: a lock is held for one read-modify-write of a small
// file (milliseconds), never across a network request.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { kill, pid } from 'node:process';
import { ConflictError } from '../errors.js';

/** How long a run waits for another to finish writing before it gives up (exit 6). */
export const LOCK_WAIT_MS = 15_000;
/** A lock older than this is left over by a run that died (hold times are milliseconds). */
export const STALE_MS = 30_000;

export interface LockOptions {
  waitMs?: number;
  staleMs?: number;
}

/** Another run holds the file's lock for longer than we wait. */
export class LockBusyError extends ConflictError {}

export async function withLock<T>(
  file: string,
  fn: () => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS);
  for (let attempt = 0; ; attempt++) {
    const held = tryTake(lock, options.staleMs ?? STALE_MS);
    if (held) {
      try {
        return await fn();
      } finally {
        release(lock, held);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pause(attempt, deadline, file, lock)));
  }
}

/** The same, for synchronous writers (the config store). Waiting blocks the thread. */
export function withLockSync<T>(file: string, fn: () => T, options: LockOptions = {}): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS);
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    const held = tryTake(lock, options.staleMs ?? STALE_MS);
    if (held) {
      try {
        return fn();
      } finally {
        release(lock, held);
      }
    }
    Atomics.wait(sleeper, 0, 0, pause(attempt, deadline, file, lock));
  }
}

/**
 * Takes the lock without waiting: a release function, or undefined while another run holds it.
 * For long holds (a blob download), pass a stale age longer than the hold.
 */
export function tryLock(file: string, staleMs = STALE_MS): (() => void) | undefined {
  const lock = `${file}.lock`;
  const held = tryTake(lock, staleMs);
  return held ? () => release(lock, held) : undefined;
}

/** The next pause (growing, with jitter so waiters do not move in step), or LockBusyError. */
function pause(attempt: number, deadline: number, file: string, lock: string): number {
  const left = deadline - Date.now();
  if (left <= 0)
    throw new LockBusyError(`another hubctl is writing ${file}`, {
      hint: `Try again when it has finished; if no hubctl is running, remove ${lock}.`,
    });
  return Math.min(left, Math.min(5 * 2 ** Math.min(attempt, 4), 80) * (0.5 + Math.random()));
}

/**
 * Creates the lock file; its content when taken, undefined when another run holds it. A stale lock
 * (its run is gone) is broken and taken in the same call: a run that finds a dead run's lock
 * (a download's, after SIGKILL) takes it over at once rather than on some later try.
 */
function tryTake(lock: string, staleMs: number): string | undefined {
  const mine = `${pid} ${hostname()} ${Date.now()} ${randomBytes(4).toString('hex')}`;
  let fd: number | undefined;
  for (let attempt = 0; fd === undefined; attempt++) {
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (attempt > 0 || !breakIfStale(lock, staleMs)) return undefined;
    }
  }
  try {
    writeSync(fd, mine);
  } finally {
    closeSync(fd);
  }
  return mine;
}

function release(lock: string, mine: string): void {
  // Only our own lock: if it was taken over as stale, the file is someone else's now.
  if (readOrUndefined(lock) === mine) unlinkQuietly(lock);
}

/** Breaks the lock when its run is gone or it is too old; whether it was broken (and may be taken now). */
function breakIfStale(lock: string, staleMs: number): boolean {
  const seen = readOrUndefined(lock);
  if (seen === undefined || !isStale(lock, seen, staleMs)) return false;
  // Move it aside first: of two runs breaking the same lock, one renames it and the other fails.
  const aside = `${lock}.stale-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lock, aside);
  } catch {
    return false;
  }
  // A fresh lock taken between our read and our rename goes back (link fails if one exists now).
  let broken = true;
  if (readOrUndefined(aside) !== seen) {
    broken = false;
    try {
      linkSync(aside, lock);
    } catch {
      // Another run holds a newer lock: nothing to restore.
    }
  }
  unlinkQuietly(aside);
  return broken;
}

function isStale(lock: string, content: string, staleMs: number): boolean {
  const [owner, host, time] = content.split(' ');
  const since = Number(time);
  // A lock file still being written (empty) or torn: judge by its age on disk.
  const born = Number.isFinite(since) && since > 0 ? since : mtimeOf(lock);
  if (born === undefined) return false;
  if (Date.now() - born > staleMs) return true;
  return host === hostname() && Number(owner) > 0 && !processExists(Number(owner));
}

function processExists(owner: number): boolean {
  try {
    kill(owner, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
