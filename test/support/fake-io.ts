// An IO whose stdout and stderr are captured as strings, for tests of output and whole commands.
import { Readable } from 'node:stream';
import type { IO } from '../../src/output/io.js';

export interface FakeIoOptions {
  /** What stdin holds (default: nothing). */
  stdin?: string;
  /** Terminal width, when the test depends on it. */
  columns?: number;
}

export function fakeIo(
  tty: boolean,
  options: FakeIoOptions = {},
): { io: IO; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' };
  const io: IO = {
    stdout: { write: (s: string) => (out.stdout += s) },
    stderr: { write: (s: string) => (out.stderr += s) },
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    ...(options.columns === undefined ? {} : { columns: options.columns }),
  };
  return { io, out };
}
