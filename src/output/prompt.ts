// Questions on the terminal: a secret without echo, and a yes/no confirmation. Both are asked on
// stderr so that stdout stays data.
import type { Writable } from 'node:stream';
import { CancelledError, UsageError } from '../errors.js';
import { escapeControl } from './escape.js';
import type { IO } from './io.js';

export interface Prompter {
  /** Reads a line without echoing it (TTY only). */
  secret(question: string): Promise<string>;
  /** Reads a line, echoed. */
  text(question: string): Promise<string>;
  /** Asks y/N; answers false on anything but y/yes. */
  confirm(question: string): Promise<boolean>;
}

export function createPrompter(io: IO): Prompter {
  const ask = async (question: string, mute: boolean) => {
    // node:readline is loaded only to ask: every command builds a prompter, few ask anything.
    const { createInterface } = await import('node:readline');
    return new Promise<string>((resolve, reject) => {
      if (!io.stdinIsTTY) {
        reject(new UsageError('cannot ask a question: standard input is not a terminal'));
        return;
      }
      // readline redraws its line (the cursor to column 0, the rest of the screen cleared) as it
      // starts and after each key: a question written before it would be erased. So an echoed
      // question is readline's own prompt, which every redraw draws again; a muted one is written
      // here, and readline, whose output is muted, never draws over it.
      const shown = escapeControl(question);
      if (mute) io.stderr.write(shown);
      let muted = false;
      const output = {
        write: (chunk: string) => {
          if (!muted) io.stderr.write(chunk);
          return true;
        },
        on: () => output,
        once: () => output,
        emit: () => false,
        removeListener: () => output,
      } as unknown as Writable;
      const rl = createInterface({ input: io.stdin, output, terminal: true });
      muted = mute;
      let answered = false;
      rl.on('SIGINT', () => {
        rl.close();
        io.stderr.write('\n');
        reject(new CancelledError('cancelled'));
      });
      rl.on('close', () => {
        if (!answered) reject(new CancelledError('cancelled'));
      });
      rl.question(mute ? '' : shown, (answer) => {
        answered = true;
        rl.close();
        if (mute) io.stderr.write('\n');
        resolve(answer);
      });
    });
  };
  return {
    secret: (question) => ask(question, true),
    text: async (question) => (await ask(question, false)).trim(),
    confirm: async (question) => /^y(es)?$/i.test((await ask(`${question} [y/N] `, false)).trim()),
  };
}
