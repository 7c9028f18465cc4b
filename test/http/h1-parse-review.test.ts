// Defects found in review of h1-parse.ts (the blob transport's answer parser), each pinned by a test.
import { describe, expect, it } from 'vitest';
import { ChunkedDecoder, MalformedAnswerError, parseResponseHead } from '../../src/http/h1-parse.js';

/** How long `f` blocks the thread, in ms. */
function blocked(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

describe('a header line is read in time linear in its length (no backtracking blow-up)', () => {
  // A field whose value is a run of blanks and then a byte no value may hold: a backtracking
  // pattern (name, blanks, lazy value, blanks, end) tried every split of the blanks, cubic in their
  // number: 4,000 took 19 s, a 16 KiB head would hold the thread (and every timer) for minutes.
  const hostile = (blanks: number) => Buffer.from(`HTTP/1.1 200 OK\r\na:${' '.repeat(blanks)}\x01\r\n\r\n`);

  it('refuses such a head, at its whole allowed size, at once', () => {
    let err: unknown;
    const ms = blocked(() => {
      try {
        parseResponseHead(hostile(16 * 1024 - 40));
      } catch (e) {
        err = e;
      }
    });
    expect(err).toBeInstanceOf(MalformedAnswerError);
    expect(ms).toBeLessThan(200);
  });

  it('refuses such a trailer line at once', () => {
    const decoder = new ChunkedDecoder(() => {});
    let err: unknown;
    const ms = blocked(() => {
      try {
        decoder.push(Buffer.from(`0\r\nx:${' '.repeat(16 * 1024 - 20)}\x01\r\n\r\n`));
      } catch (e) {
        err = e;
      }
    });
    expect(err).toBeInstanceOf(MalformedAnswerError);
    expect(ms).toBeLessThan(200);
  });

  it('still reads blanks around and inside a value as RFC 9112 §5 says (trimmed outside, kept inside)', () => {
    const head = parseResponseHead(
      Buffer.from('HTTP/1.1 200 OK\r\nA: \t x \t y \t \r\nB:\r\nC:   \r\nD:z\r\n\r\n'),
    );
    expect(head?.headers).toEqual({ a: 'x \t y', b: '', c: '', d: 'z' });
  });
});
