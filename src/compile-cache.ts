// A V8 code cache for dist's own CommonJS chunks (node 20 has no module.enableCompileCache): what
// `policy eval` spends compiling the policy chunks is read back from a local file instead (issue 14).
// Trust: the cache lives under the user's cache directory, per hubctl and node version; files are
// written atomically (temporary file, then rename, mode 0600); V8 checks each against its source and
// rejects a mismatch or a corrupt file, which is then compiled as usual and rewritten. Chunk names
// carry a hash of their content. Nothing here comes from a server, and no failure here is an error.
//
// V8 also checks a cache against a hash of its flags, and a flag set while the process runs
// (http/dispatcher.ts's --liftoff-only) changes that hash for the rest of the process. So whoever
// sets one first calls the hook at BEFORE_V8_FLAG: the chunks compiled so far have their caches
// taken then, under the hash they will be checked against next time, and a chunk compiled after it
// gets a cache file of its own (`….js--liftoff-only.cache`). (Written at exit under the changed
// hash, every cache a network command wrote was rejected on its next run and written again: ~50
// files a run, none ever used.) The hook is a process-wide symbol, as the cache is process-wide (it
// hooks Module.prototype._compile): http/ reaches it without loading this module or node:v8 here.
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

/** The cache's directory: per hubctl and node version, under XDG_CACHE_HOME or ~/.cache. */
export function compileCacheDir(env: NodeJS.ProcessEnv, nodeVersion: string): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'hubctl', `v8-${VERSION}-node${nodeVersion}`);
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
  const Module = createRequire(chunksDir)('node:module') as {
    prototype: CjsModule;
    wrap(code: string): string;
  };
  const compile = Module.prototype._compile;
  /** Chunks compiled without a cache (or with a rejected one), to be cached at exit. */
  const fresh: { file: string; script: Script; data?: Buffer }[] = [];
  /** The V8 flags set at run time so far, which name the cache files of later chunks. */
  let flagsSet = '';
  (globalThis as { [BEFORE_V8_FLAG]?: (flag: string) => void })[BEFORE_V8_FLAG] = (flag) => {
    if (flagsSet.includes(flag)) return;
    for (const entry of fresh) entry.data ??= entry.script.createCachedData();
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
    if (cachedData === undefined || script.cachedDataRejected) fresh.push({ file, script });
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    const require = createRequire(filename);
    return run.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  // Written at exit, when the functions that ran are compiled and go into the cache too.
  atExit(() => {
    for (const { file, script, data } of fresh) {
      const tmp = `${file}.${tmpSuffix}.tmp`;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // Created new (O_EXCL): never written through a symlink planted at the temporary name.
        writeFileSync(tmp, data ?? script.createCachedData(), { mode: 0o600, flag: 'wx' });
        renameSync(tmp, file);
      } catch {
        rmSync(tmp, { force: true });
      }
    }
  });
}

/** `(flag: string) => void`, called right before a V8 flag is set at run time. */
export const BEFORE_V8_FLAG = Symbol.for('hubctl.compileCache.beforeV8Flag');
