// What a verb's register() receives: a way to run its body with the context built from the parsed
// global options. Parsing tests pass a fake host and a spy in place of run().
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

export interface CommandHost {
  /** Runs a command body; its number (if any) becomes the exit code. */
  run(body: (ctx: Context) => Promise<unknown>): Promise<void>;
  /**
   * The whole command tree, every group loaded, for what describes it (completion scripts). Handed
   * down by program.ts, so that no command imports the program that imports it.
   */
  tree?(): Promise<Command>;
}

/** Adds an "Examples:" section to a command's --help. */
export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Collects a repeatable option; comma-separated values are split too (`--scope a,b --scope c`). */
export function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

export { collectRepeat } from './option-table.js';

/** A whole number from 1 to `max` (pages, sizes: no server needs more, and 1e+23 is no page). */
export function positiveInt(name: string, max = 1_000_000) {
  return (value: string): number => {
    if (!/^\d{1,16}$/.test(value) || Number(value) < 1 || Number(value) > max) {
      const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
      throw new UsageError(`${name} must be a whole number from 1 to ${max} (got "${shown}")`);
    }
    return Number(value);
  };
}

/**
 * Deletes and other destructive verbs: ask on a TTY unless --yes; refuse without a TTY and --yes.
 * Returns false when the user said no.
 */
export async function confirmDestructive(ctx: Context, question: string): Promise<boolean> {
  if (ctx.globals.yes) return true;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError('refusing to delete without confirmation', {
      hint: 'Standard input is not a terminal: pass --yes to confirm.',
    });
  }
  return ctx.prompt.confirm(question);
}
