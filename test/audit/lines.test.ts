// The line splitter of `policy replay`: the same lines whatever the chunking, long lines reported
// and dropped with bounded memory.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/audit/lines.js';

function split(chunks: Buffer[], cap: number): (string | { tooLong: number })[] {
  const out: (string | { tooLong: number })[] = [];
  const numbers: number[] = [];
  const s = new LineSplitter(
    {
      line: (t, n) => {
        out.push(t);
        numbers.push(n);
      },
      tooLong: (n) => {
        out.push({ tooLong: n });
        numbers.push(n);
      },
    },
    cap,
  );
  for (const c of chunks) s.push(c);
  s.end();
  // line numbers count every line, in order
  expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  return out;
}

describe('LineSplitter', () => {
  it('gives the lines of the text whatever the chunking; CRLF ends a line too', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('é', '日本', '😀')), {
          maxLength: 20,
        }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        (lines, cuts, crlf) => {
          const clean = lines.map((l) => l.replace(/[\r\n]/g, ''));
          const text = clean.map((l) => `${l}${crlf ? '\r\n' : '\n'}`).join('');
          const bytes = Buffer.from(text);
          const chunks: Buffer[] = [];
          for (let at = 0, k = 0; at < bytes.length; k++) {
            const n = cuts[k % cuts.length]!;
            chunks.push(bytes.subarray(at, at + n));
            at += n;
          }
          expect(split(chunks, 1 << 20)).toEqual(clean);
        },
      ),
    );
  });

  it('reports a line over the cap by its number and goes on with the next, whatever the chunking', () => {
    const text = Buffer.from(`short\n${'x'.repeat(50)}\nafter\n${'y'.repeat(11)}`);
    for (const size of [1, 3, 7, 64]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < text.length; at += size) chunks.push(text.subarray(at, at + size));
      expect(split(chunks, 10)).toEqual(['short', { tooLong: 2 }, 'after', { tooLong: 4 }]);
    }
    expect(split([Buffer.from('0123456789\n')], 10)).toEqual(['0123456789']);
  });

  it('gives a sink that takes blocks (lineIn) the same lines and numbers as line by line, whatever the bytes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.uint8Array({ maxLength: 40 }),
            fc
              .constantFrom('\n', '\r\n', 'é\n', '\xe2\x82\n', 'x'.repeat(70))
              .map((t) => Buffer.from(t, 'latin1')),
            fc.string({ maxLength: 30 }).map((t) => Buffer.from(`${t}\n`)),
          ),
          { maxLength: 30 },
        ),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(16, 64, 1 << 20),
        (parts, cuts, cap) => {
          const bytes = Buffer.concat(parts);
          const chunks: Buffer[] = [];
          for (let at = 0, k = 0; at < bytes.length; k++) {
            const n = cuts[k % cuts.length]!;
            chunks.push(bytes.subarray(at, at + n));
            at += n;
          }
          const run = (blocks: boolean) => {
            const out: (string | number)[][] = [];
            const sink = {
              line: (t: string, n: number) => out.push([t, n]),
              tooLong: (n: number) => out.push([n]),
              ...(blocks
                ? { lineIn: (t: string, a: number, b: number, n: number) => out.push([t.slice(a, b), n]) }
                : {}),
            };
            const s = new LineSplitter(sink, cap);
            for (const c of chunks) s.push(c);
            s.end();
            return out;
          };
          expect(run(true)).toEqual(run(false));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('drops a 1 GB line as it arrives: memory stays bounded', () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const before = process.memoryUsage();
    let longs = 0;
    const lines: string[] = [];
    const s = new LineSplitter({ line: (t) => lines.push(t), tooLong: () => longs++ }, 1024 * 1024);
    s.push(Buffer.from('{"a":1}\n'));
    for (let i = 0; i < 1024; i++) s.push(chunk);
    s.push(Buffer.from('\n{"b":2}\n'));
    s.end();
    const after = process.memoryUsage();
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(longs).toBe(1);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(128 * 1024 * 1024);
  });

  it('drops a 1 GB line as it arrives for a sink that takes blocks too', () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const before = process.memoryUsage();
    let longs = 0;
    const lines: string[] = [];
    const s = new LineSplitter(
      {
        line: (t) => lines.push(t),
        lineIn: (t, a, b) => lines.push(t.slice(a, b)),
        tooLong: () => longs++,
      },
      1024 * 1024,
    );
    s.push(Buffer.from('{"a":1}\n{"c":3}\nxx'));
    for (let i = 0; i < 1024; i++) s.push(chunk);
    s.push(Buffer.from('\n{"b":2}\n{"d":4}\n'));
    s.end();
    const after = process.memoryUsage();
    expect(lines).toEqual(['{"a":1}', '{"c":3}', '{"b":2}', '{"d":4}']);
    expect(longs).toBe(1);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(128 * 1024 * 1024);
  });
});
