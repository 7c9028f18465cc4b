// `--jq EXPR`: every JSON document a command prints goes through real jq (jqlang's jq, compiled to
// WebAssembly by the jq-wasm package), and stdout gets what `jq -r EXPR` would print for it: each
// output on its own line, strings raw, anything else as jq's indented JSON. Loaded only when --jq is
// given (src/context.ts openContext): the engine is ~1 MB of WebAssembly, nothing start-up may pay.
import { HubctlError, UsageError } from '../errors.js';

/** A compiled expression, applied to each JSON document a command prints. */
export interface JqFilter {
  readonly expression: string;
  /**
   * What `jq -r EXPR` prints for `value`, and jq's complaint when it stopped on an error (the text
   * is then what it printed before it stopped).
   */
  apply(value: unknown): { text: string; error?: JqRuntimeError };
}

/** jq stopped on an error (`error("x")`, `.a` of a string): exit 1, jq's words as the message. */
export class JqRuntimeError extends HubctlError {
  override readonly code = 'JQ_ERROR';
}

/** An expression longer than this is no one's --jq (it is a file read by mistake). */
const MAX_EXPRESSION = 64 * 1024;
/** jq's complaint is shown by its first line (the source line and caret below it are left out). */
const MAX_COMPLAINT_LINES = 1;

// jq-wasm's raw() gives jq's stdout trimmed at both ends, which would lose a raw string's leading
// or trailing spaces and newlines. The program is wrapped so that its output starts and ends with a
// mark no trim touches, and -j (raw, no newline) with an explicit "\n" after each output rebuilds
// exactly the lines `jq -r` prints. The expression sits on lines of its own, so jq's complaints
// about it name its own columns (and its line, one more than the user's: corrected below).
const MARK = '\u0001';
const wrapped = (expression: string) => `"\\u0001", ((\n${expression}\n) | ., "\\n"), "\\u0001"`;
// Compiles without running: `empty` has no output, so the expression is never evaluated.
const checkOnly = (expression: string) => `empty | (\n${expression}\n)`;

type JqModule = typeof import('jq-wasm');
type Jq = Awaited<ReturnType<JqModule['loadJq']>>;

let loaded: Promise<Jq> | undefined;

/** The engine, instantiated once per process (its WebAssembly is compiled on first use). */
function engine(): Promise<Jq> {
  loaded ??= import('jq-wasm').then((m: JqModule) => m.loadJq());
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/** Loads the engine and compiles the expression; an invalid one is a usage error (exit 2). */
export async function compileJq(expression: string): Promise<JqFilter> {
  if (expression.length > MAX_EXPRESSION) {
    throw new UsageError(`the --jq expression is ${expression.length} characters; at most ${MAX_EXPRESSION}`);
  }
  const jq = await engine();
  const check = jq.raw(null, checkOnly(expression), ['-n']);
  if (check.exitCode !== 0) {
    throw new UsageError(
      `invalid --jq expression ${quote(expression)}: ${complaint(jq, expression, check.stderr)}`,
    );
  }
  return {
    expression,
    apply(value) {
      const result = jq.raw(value as never, wrapped(expression), ['-j']);
      const out = result.stdout;
      const start = out.startsWith(MARK) ? 1 : 0;
      const end = out.endsWith(MARK) && out.length > start ? out.length - 1 : out.length;
      let text = out.slice(start, end);
      if (result.exitCode === 0) return { text };
      // Stopped by an error: no closing mark, so the trim took the last output's newline (and, in
      // the rare case of a last output that ends with spaces, those too). Every output ended a line.
      if (text !== '' && !text.endsWith('\n')) text += '\n';
      const why = firstLines(result.stderr, 1).replace(/^jq: error(?: \(at [^)]*\))?: /, '');
      const error = new JqRuntimeError(`--jq ${quote(expression)}: ${why}`);
      return { text, error };
    },
  };
}

/**
 * jq's complaint about an expression that does not compile, with its line number as the user wrote
 * it. The expression alone is compiled again for it (it fails to compile, so nothing runs).
 */
function complaint(jq: Jq, expression: string, wrappedStderr: string): string {
  const alone = jq.raw(null, expression, ['-n']);
  const stderr =
    alone.exitCode === 3
      ? alone.stderr
      : wrappedStderr.replace(/line (\d+)/, (_, n) => `line ${Math.max(1, Number(n) - 1)}`);
  return firstLines(stderr.replace(/^jq: error: /, ''), MAX_COMPLAINT_LINES).replace(
    /\s*jq: \d+ compile errors?$/,
    '',
  );
}

function firstLines(text: string, count: number): string {
  return text
    .split('\n')
    .filter((line) => !/^jq: \d+ compile errors?$/.test(line))
    .slice(0, count)
    .join('\n')
    .trimEnd();
}

function quote(expression: string): string {
  const shown = expression.length > 80 ? `${expression.slice(0, 77)}...` : expression;
  return JSON.stringify(shown);
}
