// main(argv): parse, run, and map errors to exit codes (src/report.ts, the only place that does the
// mapping and the only place that prints an error). Start-up is measured (bench/startup.mjs): this
// module loads nothing but the version, and everything else only on the path that needs it.
import { setMaxListeners } from 'node:events';
import { fstatSync } from 'node:fs';
import type { ContextDeps } from './context.js';
import { prerenderedHelp } from './help-text.js';
import { FdSink } from './output/fd-sink.js';
import { VERSION } from './version.js';

// For scripts/build.mjs, which renders the help into dist/help.json.
export { HELP_WIDTH, renderedHelp } from './help-text.js';

/** Exit codes of decisions §7 this module returns itself (the rest come from src/report.ts). */
const OK = 0;
const USAGE = 2;

/** `commanderOnly` reads every argv with commander (tests compare it with the fast path). */
export async function main(
  argv: string[],
  deps?: ContextDeps,
  { commanderOnly = false }: { commanderOnly?: boolean } = {},
): Promise<number> {
  // The cheapest path of all: nothing to parse, nothing to load, no stream but stdout.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    writeOut(deps, `${VERSION}\n`);
    return OK;
  }
  // Top-level help, pre-rendered at build time: no commander to compile. A bare `hubctl` asked for
  // nothing: its help goes to stderr with exit 2, so that `hubctl $EMPTY` fails in a script and
  // prints nothing a pipe would take for data.
  if (argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h'))) {
    const fd = argv.length === 0 ? 2 : 1;
    const tty = deps ? (fd === 1 ? deps.io.stdoutIsTTY : deps.io.stderrIsTTY) : isTerminal(fd);
    const text = prerenderedHelp(tty, tty ? (deps?.io.columns ?? process.stdout.columns) : undefined);
    if (text !== undefined) {
      writeOut(deps, text, fd);
      return argv.length === 0 ? USAGE : OK;
    }
  }
  // `hubctl help exit-codes | environment | formats`: plain text, no commander either.
  if (argv[0] === 'help' && argv.length === 2) {
    const { HELP_TOPICS } = await import('./help-topics.js');
    const topic = HELP_TOPICS[argv[1]!];
    if (topic !== undefined) {
      writeOut(deps, topic);
      return OK;
    }
  }
  const run = deps ?? realDeps();
  try {
    if (!deps) {
      // The real process compiles dist's chunks through a V8 code cache (src/compile-cache.ts).
      const { compileCacheDir, useCompileCache } = await import('./compile-cache.js');
      useCompileCache(
        new URL('./chunks', import.meta.url).pathname,
        compileCacheDir(process.env, process.version),
        (write) => process.once('exit', write),
        String(process.pid),
      );
    }
    // `policy eval` is what scripts run in loops: it starts without commander when it can.
    if (!commanderOnly && argv[argv.indexOf('policy') + 1] === 'eval') {
      const { fastEval } = await import('./commands/policy/fast-eval.js');
      const code = await fastEval(argv, run);
      if (code !== undefined) return code;
    }
    // `image copy SRC DST`, a registry mirror's every step: without commander when it can (issue 27).
    if (!commanderOnly && argv[argv.indexOf('image') + 1] === 'copy') {
      const { fastCopy } = await import('./commands/image/fast-copy.js');
      const code = await fastCopy(argv, run);
      if (code !== undefined) return code;
    }
    const { buildProgram, unknownHelpTopic } = await import('./program.js');
    const { program, state } = await buildProgram(run, argv);
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return USAGE;
    }
    const unknown = unknownHelpTopic(program, argv);
    if (unknown !== undefined) {
      const { UsageError } = await import('./errors.js');
      const { HELP_TOPICS } = await import('./help-topics.js');
      throw new UsageError(`there is no help topic or command named "${unknown}"`, {
        hint: `Topics: ${Object.keys(HELP_TOPICS).join(', ')}; commands: hubctl --help.`,
      });
    }
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (err) {
    const { report } = await import('./report.js');
    // With --jq (and no --json) errors stay sentences: the script reads text, and so does its log.
    return report(err, run.io, { json: argv.includes('--json'), debug: argv.includes('--debug') });
  }
}

/** Writes the fast paths' text: to descriptor 1 (or 2) directly in the real process (src/output/fd-sink.ts). */
function writeOut(deps: ContextDeps | undefined, text: string, fd: 1 | 2 = 1): void {
  if (deps) (fd === 1 ? deps.io.stdout : deps.io.stderr).write(text);
  // A reader that stopped early (`hubctl --help | head -1`) is no error.
  else if (fd === 2) process.stderr.write(text);
  else
    new FdSink(
      1,
      () => process.stdout.on('error', () => undefined),
      () => undefined,
    ).write(text);
}

/**
 * Whether a descriptor is a terminal. Only a character device can be one, and fstat says so
 * without loading node:tty (which loads node:net, ~5 ms of start-up); a character device (a
 * terminal, or /dev/null) is then asked of isatty.
 */
function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** The real process: its streams, environment and Ctrl-C. */
export function realDeps(): ContextDeps {
  const controller = new AbortController();
  // Every request in flight listens on this one signal: copy --all-tags has 4 tags × 4 blobs and
  // their HEADs at once, past node's warning at 10 ("possible EventTarget memory leak").
  setMaxListeners(256, controller.signal);
  let interrupts = 0;
  process.on('SIGINT', () => {
    // First Ctrl-C: let commands cancel uploads and remove temporary files; second: leave now.
    if (++interrupts > 1) process.exit(130);
    controller.abort(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
  });
  // A reader that stops early (`hubctl token list | head -3`) is no error: stop quietly, not with
  // an unhandled EPIPE and a stack trace.
  const quietOnEpipe = <S extends NodeJS.WriteStream>(stream: S): S =>
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  // Each stream is set up when first used (node opens process.stdin, .stdout and .stderr lazily,
  // and each costs start-up time); whether it is a terminal is asked of its descriptor.
  let stdout: FdSink | undefined;
  let stderr: NodeJS.WriteStream | undefined;
  const ttys: Partial<Record<0 | 1 | 2, boolean>> = {};
  const tty = (fd: 0 | 1 | 2) => (ttys[fd] ??= isTerminal(fd));
  return {
    io: {
      get stdout() {
        stdout ??= new FdSink(
          1,
          () => quietOnEpipe(process.stdout),
          () => process.exit(process.exitCode ?? 0),
        );
        return stdout;
      },
      get stderr() {
        stderr ??= quietOnEpipe(process.stderr);
        return stderr;
      },
      get stdin() {
        return process.stdin;
      },
      get stdoutIsTTY() {
        return tty(1);
      },
      get stderrIsTTY() {
        return tty(2);
      },
      get stdinIsTTY() {
        return tty(0);
      },
      get columns() {
        return process.stdout.columns ?? process.stderr.columns;
      },
    },
    env: process.env,
    signal: controller.signal,
  };
}
