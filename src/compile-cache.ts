// A V8 code cache for dist's own CommonJS chunks (node 20 has no module.enableCompileCache): what
// `policy eval` spends compiling the policy chunks is read back from a local file instead (issue 14).
// Trust: the cache lives under the user's cache directory, per hubctl and node version; files are
// written atomically (temporary file, then rename, mode 0600); V8 checks each against its source and
// rejects a mismatch or a corrupt file, which is then compiled as usual and rewritten. Chunk names
// carry a hash of their content. Nothing here comes from a server, and no failure here is an error.
//
// V8 also checks a cache against a hash of its flags, and a flag set while the process runs
// (http/dispatcher.ts's --liftoff-only) changes that hash for the rest of the process. So whoever
// sets one first calls the hook at BEFORE_V8_FLAG, and a chunk compiled after it gets a cache file
// of its own (`….js--liftoff-only.cache`). (Written at exit under the changed hash, every cache a
// network command wrote was rejected on its next run and written again: ~50 files a run, none ever
// used.) The chunks compiled before the flag are cached at exit too, with every function the
// command ran, under the hash they are checked against next time: the flags are undone first
// (the setter says how), and a probe cached before the flag tells whether V8's hash is back. If it
// is not, their caches taken when the flag was set are written instead; those held only what had
// run by then, and each run compiled the rest again (a registry copy: ~90 KB of the image group's
// code, ~400 functions, issue 27). The hook is a process-wide symbol, as the cache is process-wide
// (it hooks Module.prototype._compile): http/ reaches it without loading this module or node:v8 here.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { VERSION } from './version.js';

interface CjsModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}

/**
 * A hash of dist's chunks, written in by scripts/build.mjs. A chunk's name carries a hash of its own
 * code, but a packed file holds chunks its name does not cover (the image group's holds the registry
 * path's), and V8 checks a cache against its source's length only: a cache of another build's file
 * of the same name and length was accepted, and ran that build's code.
 */
const BUILD = 'hubctl-unbuilt-chunks';

/** The cache's directory: per hubctl version, build and node version, under XDG_CACHE_HOME or ~/.cache. */
export function compileCacheDir(env: NodeJS.ProcessEnv, nodeVersion: string): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'hubctl', `v8-${VERSION}-node${nodeVersion}-${BUILD}`);
}

/**
 * Hooks require() for files in `chunksDir` (dist/chunks). `atExit` runs the cache writes when the
 * process ends; `tmpSuffix` (the pid) names each write's temporary file.
 */
export function useCompileCache(
  chunksDir: string,
  dir: string,
  atExit: (write: () => void) => void,
  tmpSuffix: string,
): void {
  const requireBuiltin = createRequire(chunksDir);
  const Module = requireBuiltin('node:module') as {
    prototype: CjsModule;
    wrap(code: string): string;
  };
  const compile = Module.prototype._compile;
  /**
   * Chunks compiled without a cache (or with a rejected one), to be cached at exit; `generation`:
   * how many run-time flags were set when each was compiled. `data`: its cache as it was when the
   * next flag was set, in case that flag cannot be undone at exit.
   */
  const fresh: { file: string; script: Script; generation: number; data?: Buffer }[] = [];
  /** The V8 flags set at run time, in order: how to undo each, and a probe cached before it. */
  const flags: { undo: string | undefined; probe: Buffer | undefined }[] = [];
  /** The V8 flags set at run time so far, which name the cache files of later chunks. */
  let flagsSet = '';
  // Once per flag: setV8Flag (src/v8-flags.ts), the one caller, sets each flag once.
  (globalThis as { [BEFORE_V8_FLAG]?: BeforeV8Flag })[BEFORE_V8_FLAG] = (flag, undo) => {
    for (const entry of fresh) entry.data ??= entry.script.createCachedData();
    // Only a chunk compiled before the flag needs it undone at exit (a warm run has none).
    flags.push({ undo, probe: fresh.length > 0 ? probeScript().createCachedData() : undefined });
    flagsSet += flag;
  };
  Module.prototype._compile = function (this: CjsModule, content: string, filename: string) {
    // scripts/build.mjs leaves no import() in a chunk: on node 20 a vm.Script's import() needs
    // --experimental-vm-modules.
    if (dirname(filename) !== chunksDir) return compile.call(this, content, filename);
    const file = join(dir, `${basename(filename)}${flagsSet}.cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {}
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected)
      fresh.push({ file, script, generation: flags.length });
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    const require = createRequire(filename);
    return run.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  // Written at exit, when the functions that ran are compiled and go into the cache too: the chunks
  // compiled under every flag first, then each flag undone in turn (newest first) and the chunks
  // compiled before it, while V8's flag hash is what it was when they were compiled.
  atExit(() => {
    if (fresh.length === 0) return;
    let restored = true;
    for (let generation = flags.length; generation >= 0; generation--) {
      for (const entry of fresh) {
        if (entry.generation !== generation) continue;
        const data = restored
          ? entry.script.createCachedData()
          : (entry.data ?? entry.script.createCachedData());
        write(entry.file, data, dir, tmpSuffix);
      }
      if (generation === 0 || !fresh.some((e) => e.generation < generation)) break;
      const { undo, probe } = flags[generation - 1]!;
      restored =
        restored &&
        undo !== undefined &&
        probe !== undefined &&
        undoFlag(undo, probe, requireBuiltin('node:v8') as typeof import('node:v8'));
    }
  });
}

function write(file: string, data: Buffer, dir: string, tmpSuffix: string): void {
  const tmp = `${file}.${tmpSuffix}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Created new (O_EXCL): never written through a symlink planted at the temporary name.
    writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** A script whose cache says whether V8's flag hash is what it was when the cache was taken. */
function probeScript(cachedData?: Buffer): Script {
  return new Script('"hubctl: V8 flag hash probe"', { filename: 'hubctl-flag-probe', cachedData });
}

/** Undoes a run-time flag (at exit); answers whether V8's flag hash is back to the probe's. */
function undoFlag(undo: string, probe: Buffer, v8: typeof import('node:v8')): boolean {
  try {
    v8.setFlagsFromString(undo);
    return !probeScript(probe).cachedDataRejected;
  } catch {
    return false;
  }
}

/**
 * Called right before a V8 flag is set at run time. `undo`: the flags that set V8 back as it was
 * (the flag's default, and those it implies); without it, the chunks compiled before the flag are
 * cached as they were when it was set.
 */
export type BeforeV8Flag = (flag: string, undo?: string) => void;

/** A BeforeV8Flag, called right before a V8 flag is set at run time. */
export const BEFORE_V8_FLAG = Symbol.for('hubctl.compileCache.beforeV8Flag');
