// `hubctl --help`, `-h` and a bare `hubctl` print the top-level help without loading commander
// (126 KB to compile: most of --help's start-up). scripts/build.mjs renders it with commander into
// dist/help.json, and test/arch/help.test.ts checks that it equals commander's own output.
import { readFileSync } from 'node:fs';

/** Commander's width when stdout is not a terminal; the build renders at it. */
export const HELP_WIDTH = 80;

export interface RenderedHelp {
  /** Rendered at HELP_WIDTH. */
  narrow: string;
  /** Rendered with no width limit; `wideWidth` is its longest line, so any wider terminal gets it. */
  wide: string;
  wideWidth: number;
}

/** The pre-rendered help, or undefined (a terminal of another width, or no build, as under vitest). */
export function prerenderedHelp(stdoutIsTTY: boolean, columns: number | undefined): string | undefined {
  const width = stdoutIsTTY ? (columns ?? HELP_WIDTH) : HELP_WIDTH;
  let help: RenderedHelp;
  try {
    help = JSON.parse(readFileSync(new URL('./help.json', import.meta.url), 'utf8')) as RenderedHelp;
  } catch {
    return undefined;
  }
  if (width >= help.wideWidth) return help.wide;
  return width === HELP_WIDTH ? help.narrow : undefined;
}

/** What the build writes, from commander's renderings. */
export function renderedHelp(narrow: string, wide: string): RenderedHelp {
  return { narrow, wide, wideWidth: Math.max(...wide.split('\n').map((line) => line.length)) };
}
