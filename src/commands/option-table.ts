// Options as data: one table per command, read both by commander (addOptions) and by the
// commander-free reading of an argv that `policy eval` uses to start fast (readFlatArgv). Keeping one
// table is what keeps the two readings the same; test/cli/fast-eval.test.ts compares them.
// Nothing here imports commander at run time.
import type { Command } from 'commander';

export interface OptionSpec {
  /** Commander's syntax: '--explain', '-f, --file <path>', '--no-color'. */
  flags: string;
  description: string;
  /** A value option given more than once collects its values in order. */
  repeat?: boolean;
  /** Checks and converts a value (throws a UsageError naming the option). */
  parse?: (value: string) => unknown;
}

/** Adds a table's options to a command. */
export function addOptions(cmd: Command, specs: readonly OptionSpec[]): Command {
  for (const spec of specs) {
    const option = cmd.createOption(spec.flags, spec.description);
    if (spec.repeat) option.argParser(collectRepeat);
    else if (spec.parse) option.argParser(spec.parse);
    cmd.addOption(option);
  }
  return cmd;
}

/** Collects a repeatable option as given. */
export function collectRepeat(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

interface ReadSpec {
  /** The attribute name commander gives it: --fail-on-deny → failOnDeny, --no-color → color. */
  key: string;
  takesValue: boolean;
  negate: boolean;
  spec: OptionSpec;
}

function readSpec(spec: OptionSpec): { names: string[]; read: ReadSpec } {
  const names = spec.flags
    .split(/[ ,|]+/)
    .filter((part) => part.startsWith('-'))
    .map((part) => part.trim());
  const long = names.find((n) => n.startsWith('--')) ?? names[0]!;
  const negate = long.startsWith('--no-');
  const bare = negate ? long.slice(5) : long.slice(2);
  const key = bare.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return { names, read: { key, takesValue: /[<[]/.test(spec.flags), negate, spec } };
}

/** Every name (short and long) of the options in `specs` that take a value. */
export function valueOptionNames(specs: readonly OptionSpec[]): Set<string> {
  return new Set(
    specs.flatMap((spec) => {
      const { names, read } = readSpec(spec);
      return read.takesValue ? names : [];
    }),
  );
}

export interface FlatArgv {
  /** Words that are not options, in order (command names first). */
  words: string[];
  /** Option values by commander's attribute names; absent when not given. */
  options: Record<string, unknown>;
}

/**
 * Reads an argv made only of words and the options of `tables`, the way commander reads it for
 * the forms it accepts: `--name value`, `--name=value`, `-n value`, flags, `--no-x`. Returns
 * undefined for anything it cannot be sure of (`--`, `-abc`, `-nVALUE`, an unknown option, a value
 * that looks like an option, a value missing): the caller then lets commander read it, errors and
 * all. Parsers run here as in commander, so a bad value throws the same UsageError.
 */
export function readFlatArgv(
  argv: readonly string[],
  tables: readonly (readonly OptionSpec[])[],
): FlatArgv | undefined {
  const byName = new Map<string, ReadSpec>();
  for (const table of tables) {
    for (const spec of table) {
      const { names, read } = readSpec(spec);
      for (const name of names) byName.set(name, read);
    }
  }
  const words: string[] = [];
  const options: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.length < 2 || !arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const read = byName.get(name);
    if (!read) return undefined;
    if (!read.takesValue) {
      if (eq > 0) return undefined;
      options[read.key] = !read.negate;
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = argv[++i];
      // Commander's parent command would claim a value that is one of its options: let it decide.
      if (value === undefined || (value.length > 1 && value.startsWith('-'))) return undefined;
    }
    if (read.spec.repeat) options[read.key] = collectRepeat(value, options[read.key] as string[] | undefined);
    else options[read.key] = read.spec.parse ? read.spec.parse(value) : value;
  }
  return { words, options };
}
