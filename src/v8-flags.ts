// V8 flags set while the process runs. V8 checks a code cache against a hash of its flags, so a
// flag set at run time is announced first to the code cache (src/compile-cache.ts's BEFORE_V8_FLAG
// hook), which takes the caches of the chunks compiled so far under the hash they are checked
// against on the next run and names the caches of later chunks after the flag. A flag set without
// it had every cache the command wrote at exit rejected on its next run, and written again. Small
// on purpose: it loads nothing but node:v8.
import { setFlagsFromString } from 'node:v8';
import type { BeforeV8Flag } from './compile-cache.js';

/** compile-cache.ts's BEFORE_V8_FLAG (the same registered symbol; importing it would load the cache's module). */
const BEFORE_V8_FLAG = Symbol.for('hubctl.compileCache.beforeV8Flag');
const set = new Set<string>();

/**
 * Sets a V8 flag for the rest of the process (once), telling the code cache first. `undo`: the
 * flags that put V8 back as it was (the flag's default and what it implies), for the code cache at
 * exit (src/compile-cache.ts); a wrong one costs cache hits, never correctness.
 */
export function setV8Flag(flag: string, undo?: string): void {
  if (set.has(flag)) return;
  set.add(flag);
  (globalThis as { [BEFORE_V8_FLAG]?: BeforeV8Flag })[BEFORE_V8_FLAG]?.(flag, undo);
  setFlagsFromString(flag);
}
