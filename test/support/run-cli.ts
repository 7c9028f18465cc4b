// Runs hubctl's main() in process with captured IO: exact stdout, stderr and exit code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import type { Clock } from '../../src/clock.js';
import type { Prompter } from '../../src/output/prompt.js';
import { fakeIo } from './fake-io.js';

export interface RunOptions {
  /** Environment; HUBCTL_CONFIG_DIR defaults to a fresh temporary directory. */
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Pretend stdout/stderr/stdin are terminals. */
  tty?: boolean;
  clock?: Clock;
  prompter?: Prompter;
  signal?: AbortSignal;
  dispatcher?: import('undici').Dispatcher;
  /** Read the argv with commander even where src/cli.ts has a faster path. */
  commanderOnly?: boolean;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'hubctl-test-'));
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const { io, out } = fakeIo(options.tty ?? false, { stdin: options.stdin, columns: 120 });
  const env = { HUBCTL_CONFIG_DIR: tempConfigDir(), HOME: tempConfigDir(), ...options.env };
  const code = await main(
    argv,
    {
      io,
      env,
      clock: options.clock,
      prompter: options.prompter,
      signal: options.signal,
      dispatcher: options.dispatcher,
      retryBaseMs: 1,
    },
    { commanderOnly: options.commanderOnly },
  );
  return { code, stdout: out.stdout, stderr: out.stderr };
}

/** A clock that moves only when told to: token expiry tests never sleep. */
export function fixedClock(
  start = Date.parse('2026-11-22T12:00:00Z'),
): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    advance(ms) {
      now += ms;
    },
  };
}

/** A prompter that answers from a script and fails on any question it was not given. */
export function scriptedPrompter(answers: {
  secret?: string[];
  text?: string[];
  confirm?: boolean[];
}): Prompter & {
  asked: string[];
} {
  const asked: string[] = [];
  const take = <T>(list: T[] | undefined, q: string): T => {
    asked.push(q);
    if (!list || list.length === 0) throw new Error(`unexpected prompt: ${q}`);
    return list.shift() as T;
  };
  return {
    asked,
    secret: async (q) => take(answers.secret, q),
    text: async (q) => take(answers.text, q),
    confirm: async (q) => take(answers.confirm, q),
  };
}
