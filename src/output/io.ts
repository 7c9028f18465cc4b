// The terminal questions, answered once: where data and messages go, and whether each stream is a TTY.
import type { Readable } from 'node:stream';

export interface Sink {
  write(chunk: string): unknown;
}

export interface IO {
  stdout: Sink;
  stderr: Sink;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width of stderr/stdout when known. */
  columns?: number;
}

/** Colour only on a terminal, never with NO_COLOR or --no-color (decisions §7). */
export function colorEnabled(io: IO, env: Record<string, string | undefined>, flag: boolean): boolean {
  if (!flag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return io.stdoutIsTTY;
}
