// The one place that turns an error into a message and an exit code, and the one error printer.
// A user sees one plain sentence; --debug adds the stack. Loaded by src/cli.ts only when a run
// ends through an error (or commander's --help), so that the paths that succeed never load it.
import { ExitCode, exitCodeFor, HubctlError } from './errors.js';
import { filesystemError, isSystemError } from './files/safe-open.js';
import { escapeControl, escapeLines, safeJson } from './output/escape.js';
import type { IO } from './output/io.js';

interface CommanderLikeError {
  code: string;
  exitCode: number;
  message: string;
}

function isCommanderError(err: unknown): err is CommanderLikeError {
  return (
    err instanceof Error &&
    typeof (err as { code?: unknown }).code === 'string' &&
    (err as unknown as { code: string }).code.startsWith('commander.')
  );
}

export function report(thrown: unknown, io: IO, mode: { json: boolean; debug: boolean }): number {
  // A file system's refusal that no layer named: still one sentence with the path, never "unexpected".
  const err = !(thrown instanceof HubctlError) && isSystemError(thrown) ? filesystemError(thrown) : thrown;
  if (isCommanderError(err)) {
    // --help and --version end through the same path as errors.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') {
      return ExitCode.OK;
    }
    // A group named without a verb (`hubctl token`): commander printed its help on stderr.
    if (err.code === 'commander.help') return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    const message = err.message.replace(/^error: /, '');
    write(io, mode.json, 'USAGE', message, 'Run the command with --help for its usage.');
    return ExitCode.USAGE;
  }
  const code = exitCodeFor(err);
  if (err instanceof HubctlError) {
    write(io, mode.json, err.code, err.message, err.hint);
  } else if (isAbort(err)) {
    write(io, mode.json, 'CANCELLED', 'cancelled');
    return 130;
  } else {
    const message = err instanceof Error ? err.message : String(err);
    write(io, mode.json, 'INTERNAL', `unexpected error: ${message}`, 'Run with --debug for details.');
  }
  if (mode.debug && err instanceof Error && err.stack) {
    // A stack has many lines on purpose; a server's words inside it are escaped all the same.
    io.stderr.write(`${escapeLines(err.stack)}\n`);
    let cause = err.cause;
    while (cause instanceof Error) {
      io.stderr.write(`caused by: ${escapeLines(cause.stack ?? cause.message)}\n`);
      cause = cause.cause;
    }
  }
  return code;
}

// The one error printer. Messages carry servers' and files' words: escaped here, so that an escape
// sequence cannot reach the terminal and a "\n" in a server's message cannot forge a second line.
function write(io: IO, json: boolean, code: string, message: string, hint?: string): void {
  if (json) {
    io.stderr.write(`${safeJson({ error: { code, message, ...(hint ? { hint } : {}) } })}\n`);
    return;
  }
  io.stderr.write(`hubctl: ${escapeControl(message)}\n`);
  if (hint) io.stderr.write(`${escapeControl(hint)}\n`);
}

function isAbort(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR')
  );
}
