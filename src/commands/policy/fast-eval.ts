// `policy eval` without commander, for start-up (issue 14: ≤ 1.6× a bare `node -e 0`; commander
// and the command tree cost a third of that). The argv is read from the same option tables that
// commander is given (src/commands/option-table.ts), and only when every word of it is one this
// reading is sure of; anything else (help, `--`, `-abc`, an unknown option, a misplaced word)
// returns undefined and goes to commander, which reads it and names any error.
import { type ContextDeps, openContext } from '../../context.js';
import { GLOBAL_OPTIONS, globalsFrom } from '../../global-options.js';
import { type FlatArgv, readFlatArgv } from '../option-table.js';
import { EVAL_OPTIONS, evalOptions, type RawOptions, run } from './eval.js';

/** The exit code of `policy eval`, or undefined when commander should read this argv. */
export async function fastEval(argv: readonly string[], deps: ContextDeps): Promise<number | undefined> {
  const parsed = readEvalArgv(argv);
  if (!parsed) return undefined;
  const opts = evalOptions(parsed.words[0], parsed.words[1], parsed.options as RawOptions);
  return run(await openContext(deps, globalsFrom(parsed.options)), opts);
}

/**
 * `[global options] policy eval [action] [destination] [global and eval options]`, read as
 * commander reads it; undefined for any other shape.
 */
export function readEvalArgv(argv: readonly string[]): FlatArgv | undefined {
  const at = argv.indexOf('policy');
  if (at < 0 || argv[at + 1] !== 'eval') return undefined;
  const head = readFlatArgv(argv.slice(0, at), [GLOBAL_OPTIONS]);
  if (!head || head.words.length > 0) return undefined;
  const tail = readFlatArgv(argv.slice(at + 2), [GLOBAL_OPTIONS, EVAL_OPTIONS]);
  if (!tail || tail.words.length > 2) return undefined;
  const options = { ...head.options };
  // A repeatable option given on both sides of the command collects all its values, in order.
  for (const [key, value] of Object.entries(tail.options)) {
    const before = options[key];
    options[key] = Array.isArray(before) && Array.isArray(value) ? [...before, ...value] : value;
  }
  return { words: tail.words, options };
}
