// `image copy SRC DST` without commander, for a copy's fixed cost (issue 27: commander, the command
// tree and the image group's thirteen verbs were ~10 ms of a copy's ~100 ms of CPU). Taken only for
// the plain form, global options anywhere and no option of copy's own: every default then is the
// one commander would hand copy.ts (src/commands/image/transfer-options.ts). Anything else (a copy
// option, help, `--`, `-abc`, an unknown option, a word too many or too few) returns undefined and
// goes to commander, which reads it and names any error. test/cli/fast-copy.test.ts compares both.
import { type ContextDeps, openContext } from '../../context.js';
import { GLOBAL_OPTIONS, globalsFrom } from '../../global-options.js';
import { parsePlace } from '../../ref/transport.js';
import { type FlatArgv, readFlatArgv } from '../option-table.js';
import { type CopyOptions, run } from './copy.js';

/** The exit code of `image copy`, or undefined when commander should read this argv. */
export async function fastCopy(argv: readonly string[], deps: ContextDeps): Promise<number | undefined> {
  const parsed = readCopyArgv(argv);
  if (!parsed) return undefined;
  const [src, dst] = parsed.words as [string, string];
  const opts = copyOptions(src, dst);
  const code = await run(await openContext(deps, globalsFrom(parsed.options)), opts);
  return typeof code === 'number' ? code : 0;
}

/** What copy.ts's action makes of `image copy SRC DST` with no option of its own. */
export function copyOptions(src: string, dst: string): CopyOptions {
  return {
    src: parsePlace(src),
    dst: parsePlace(dst),
    allTags: false,
    platform: undefined,
    allPlatforms: false,
    // --concurrency's default; not given, so a registry's `concurrency` setting may replace it.
    concurrency: 4,
    keepDigests: false,
    referrers: false,
    concurrencyDefault: true,
  };
}

/** `[global options] image copy SRC DST [global options]`, read as commander reads it; else undefined. */
export function readCopyArgv(argv: readonly string[]): FlatArgv | undefined {
  const at = argv.indexOf('image');
  if (at < 0 || argv[at + 1] !== 'copy') return undefined;
  const head = readFlatArgv(argv.slice(0, at), [GLOBAL_OPTIONS]);
  if (!head || head.words.length > 0) return undefined;
  const tail = readFlatArgv(argv.slice(at + 2), [GLOBAL_OPTIONS]);
  if (tail?.words.length !== 2) return undefined;
  const options = { ...head.options };
  // A repeatable option given on both sides of the command collects all its values, in order.
  for (const [key, value] of Object.entries(tail.options)) {
    const before = options[key];
    options[key] = Array.isArray(before) && Array.isArray(value) ? [...before, ...value] : value;
  }
  return { words: tail.words, options };
}
