// Terminal safety: text from a server or a file never reaches a terminal or a TSV line with its
// control characters intact. C0 (tab and newline included), DEL and C1 controls could start escape
// sequences (retitle the terminal, clear the screen, move the cursor) or forge a second line; bidi
// overrides and isolates reorder what is shown (a name that reads as another). Each is written as
// a visible escape (`\x1b`, `\n`, `\u202e`) instead. Pure, no IO; every writer in src/output and
// the error printer in src/cli.ts pass text through here, so commands cannot forget it.

// C0, DEL, C1; Arabic letter mark, LRM/RLM, line and paragraph separators, bidi embeddings and
// overrides (LRE…RLO), isolates (LRI…PDI).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The text with every control and bidi character written as a visible escape; one line always. */
export function escapeControl(text: string): string {
  // Most text has nothing to escape: answer without building a new string.
  return UNSAFE_TEST.test(text) ? text.replace(UNSAFE, visible) : text;
}

/** Like escapeControl, but keeps the line breaks of a message that has several lines on purpose. */
export function escapeLines(text: string): string {
  return text.split('\n').map(escapeControl).join('\n');
}

export { safeJson } from '../json-text.js';
