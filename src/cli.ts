// main(argv): parse, run, and map errors to exit codes — the only place that does the mapping and
// the only place that prints an error. A user sees one plain sentence; --debug adds the stack.
import type { ContextDeps } from './context.js';
import { ExitCode, exitCodeFor, HubctlError } from './errors.js';
import { escapeControl, escapeLines, safeJson } from './output/escape.js';
import type { IO } from './output/io.js';
import { VERSION } from './version.js';

export async function main(argv: string[], deps: ContextDeps = realDeps()): Promise<number> {
  // The cheapest path of all: nothing to parse, nothing to load.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    deps.io.stdout.write(`${VERSION}\n`);
    return ExitCode.OK;
  }
  const json = argv.includes('--json');
  const debug = argv.includes('--debug');
  try {
    const { buildProgram } = await import('./program.js');
    const { program, state } = await buildProgram(deps, argv);
    if (argv.length === 0) {
      program.outputHelp();
      return ExitCode.USAGE;
    }
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (err) {
    return report(err, deps.io, { json, debug });
  }
}

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

export function report(err: unknown, io: IO, mode: { json: boolean; debug: boolean }): number {
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

/** The real process: its streams, environment and Ctrl-C. */
export function realDeps(): ContextDeps {
  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    // First Ctrl-C: let commands cancel uploads and remove temporary files; second: leave now.
    if (++interrupts > 1) process.exit(130);
    controller.abort(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
  });
  // A reader that stops early (`hubctl token list | head -3`) is no error: stop quietly, not with
  // an unhandled EPIPE and a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  return {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      stdinIsTTY: Boolean(process.stdin.isTTY),
      columns: process.stdout.columns ?? process.stderr.columns,
    },
    env: process.env,
    signal: controller.signal,
  };
}
