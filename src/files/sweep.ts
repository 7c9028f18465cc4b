// Sweeping what dead runs left beside the files hubctl writes (partial downloads, temporary
// archives): each leftover is claimed under its lock first, so a live run's file is never touched
// (it holds the lock), and a dead run's lock is taken over once stale.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { tryLock } from './lock.js';

/**
 * Runs `sweep` on each file of `dir` that `leftover` names, holding its lock (taken over from a run
 * gone for `staleMs`); a file whose lock is held is passed over. A folder that cannot be read holds
 * nothing to sweep.
 */
export async function sweepClaimed(
  dir: string,
  staleMs: number,
  leftover: (name: string) => boolean,
  sweep: (path: string, name: string) => Promise<void>,
): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!leftover(name)) continue;
    const path = join(dir, name);
    const release = tryLock(path, staleMs);
    if (!release) continue;
    try {
      await sweep(path, name);
    } finally {
      release();
    }
  }
}
