// A hostile server's repertoire, and the checks every command must pass in front of it: the exit
// code, one line of message on stderr, and no raw control character on stdout or stderr.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { RunResult } from './run-cli.js';

/**
 * Text a hostile server puts in names, labels and messages: retitle the terminal (OSC), clear the
 * screen (CSI), a C1 CSI, a forged second stderr line, and a right-to-left override.
 */
export const EVIL = 'x\u001b]0;pwned\u0007\u001b[2J\u009b1m\nhubctl: all good\u202eZ';
/** EVIL as hubctl must show it. */
export const EVIL_SHOWN = 'x\\x1b]0;pwned\\x07\\x1b[2J\\x9b1m\\nhubctl: all good\\u202eZ';

/** Any control or bidi character but the newline and the tab that separate lines and TSV fields. */
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** JSON bodies of the wrong shape, for any answer that should be an object. */
export const NOT_AN_OBJECT: Array<[string, unknown]> = [
  ['null', null],
  ['an array', [{ id: 'pol_1', tags: [] }]],
  // Strings are sent as they are: this one is the JSON text of a string.
  ['a string', '"abc"'],
  ['a number', 12],
];

export function expectNoRawControl(r: RunResult): void {
  expect(r.stdout).not.toMatch(RAW_CONTROL);
  expect(r.stderr).not.toMatch(RAW_CONTROL);
}

/**
 * A failure as a user must see it: the exit code, one `hubctl: …` line (and at most one hint
 * line), no "unexpected error", nothing on stdout, no raw control character.
 */
export function expectCleanFailure(r: RunResult, code: number, message: RegExp): void {
  expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code, stderr: expect.stringMatching(message) });
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^hubctl: /);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(lines.slice(1).some((l) => l.startsWith('hubctl:'))).toBe(false);
  expect(r.stderr).not.toMatch(/unexpected error|TypeError|SyntaxError|\n\s+at /);
  expect(r.stdout).toBe('');
  expectNoRawControl(r);
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A bare HTTP server on 127.0.0.1 answering whatever the test says; `answer` changes the handler. */
export async function startHostileServer(): Promise<{
  host: string;
  answer(handler: Handler): void;
  close(): Promise<void>;
}> {
  let handler: Handler = (_req, res) => {
    res.writeHead(404).end();
  };
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    answer(h) {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes an answer: a Buffer or string as it is, anything else as JSON. */
export function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
}
