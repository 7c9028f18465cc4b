// `--jq EXPR`: every JSON document a command prints goes through real jq (jqlang's jq, compiled to
// WebAssembly by the jq-wasm package), and stdout gets what `jq -r EXPR` would print for it: each
// output on its own line, strings raw, anything else as jq's indented JSON. Loaded only when --jq is
// given (src/context.ts openContext): the engine is ~1 MB of WebAssembly, nothing start-up may pay.
import { createContext, Script } from 'node:vm';
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

/** How long jq may run on one document unless HUBCTL_JQ_TIMEOUT says otherwise (seconds). */
export const DEFAULT_JQ_SECONDS = 30;

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

// jq runs synchronously in WebAssembly: nothing on this thread gets a turn until it returns, and an
// expression such as `repeat(1)` never does. V8's watchdog (vm's `timeout`) is what can stop it.
const underWatchdog = new Script('run()');
const watchdogContext = createContext({ run: (): unknown => undefined });

/** f(), or undefined when it ran past `ms` and was stopped. */
function withDeadline<T>(ms: number, f: () => T): T | undefined {
  watchdogContext.run = f;
  try {
    return underWatchdog.runInContext(watchdogContext, { timeout: ms }) as T;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw err;
  } finally {
    watchdogContext.run = () => undefined;
  }
}

/** HUBCTL_JQ_TIMEOUT: whole seconds, 1 to 3600. */
export function jqSeconds(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_JQ_SECONDS;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 3600)
    throw new UsageError(
      `HUBCTL_JQ_TIMEOUT must be whole seconds from 1 to 3600, not ${JSON.stringify(value.slice(0, 20))}`,
    );
  return Number(value);
}

/** Loads the engine and compiles the expression; an invalid one is a usage error (exit 2). */
export async function compileJq(expression: string, seconds = DEFAULT_JQ_SECONDS): Promise<JqFilter> {
  if (expression.length > MAX_EXPRESSION) {
    throw new UsageError(`the --jq expression is ${expression.length} characters; at most ${MAX_EXPRESSION}`);
  }
  const jq = await engine();
  const ms = seconds * 1000;
  const tooLong = () => {
    // Stopped in the middle of a run, the engine's state is not to be trusted again.
    loaded = undefined;
    return `did not finish within ${seconds} s (HUBCTL_JQ_TIMEOUT); for longer work pipe --json to jq`;
  };
  const check = withDeadline(ms, () => jq.raw(null, checkOnly(expression), ['-n']));
  if (check === undefined) throw new UsageError(`--jq ${quote(expression)}: ${tooLong()}`);
  if (check.exitCode !== 0) {
    throw new UsageError(
      `invalid --jq expression ${quote(expression)}: ${complaint(jq, expression, check.stderr, ms)}`,
    );
  }
  return {
    expression,
    apply(value) {
      const result = withDeadline(ms, () => jq.raw(value as never, wrapped(expression), ['-j']));
      if (result === undefined)
        return { text: '', error: new JqRuntimeError(`--jq ${quote(expression)}: ${tooLong()}`) };
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
function complaint(jq: Jq, expression: string, wrappedStderr: string, ms: number): string {
  // Alone it may compile after all (then it runs): under the same deadline.
  const alone = withDeadline(ms, () => jq.raw(null, expression, ['-n']));
  const stderr =
    alone?.exitCode === 3
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
