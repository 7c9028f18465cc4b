// Sweeping what dead runs left: each leftover is claimed under its lock first, so a live run's
// file (its lock held) is never touched; other files are left alone; a missing folder is no error.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tryLock } from '../../src/files/lock.js';
import { sweepClaimed } from '../../src/files/sweep.js';

describe('sweepClaimed', () => {
  it('sweeps the leftovers it names, under their locks, and passes over one a live run holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-sweep-'));
    for (const n of ['a.partial', 'b.partial', 'keep.json']) writeFileSync(join(dir, n), 'x');
    const held = tryLock(join(dir, 'b.partial'))!;
    const swept: string[] = [];
    await sweepClaimed(
      dir,
      60_000,
      (name) => name.endsWith('.partial'),
      async (path, name) => {
        expect(existsSync(`${path}.lock`)).toBe(true); // claimed while swept
        swept.push(name);
      },
    );
    held();
    expect(swept).toEqual(['a.partial']);
    expect(existsSync(join(dir, 'a.partial.lock'))).toBe(false); // released
  });

  it('a folder that is not there holds nothing to sweep', async () => {
    await expect(
      sweepClaimed(
        join(tmpdir(), 'hubctl-no-such-dir-x9'),
        1,
        () => true,
        async () => undefined,
      ),
    ).resolves.toBeUndefined();
  });
});
