// The blob transport's parsers (src/http/h1-parse.ts): an answer's head (RFC 9112 §4–5), its framing
// (§6.3) and a chunked body (§7.1). Expected answers come from the RFC and from the module's
// documented strictness: what is not plainly HTTP/1.1 is MalformedAnswerError, never a guess and
// never any other exception; heads are capped at 16 KiB, chunk lines and trailers are bounded.
// node's own HTTP server, writing chunked bodies with writes of random sizes, is the independent
// witness for the decoder.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ChunkedDecoder,
  framingOf,
  MAX_HEAD_BYTES,
  MalformedAnswerError,
  parseResponseHead,
  type ResponseHead,
} from '../../src/http/h1-parse.js';

/** Runs `f`; any exception but MalformedAnswerError fails the test. */
function onlyMalformed<T>(f: () => T): T | MalformedAnswerError {
  try {
    return f();
  } catch (err) {
    expect(err).toBeInstanceOf(MalformedAnswerError);
    expect((err as Error).message).not.toContain('\n');
    expect((err as Error).message.length).toBeLessThan(200);
    return err as MalformedAnswerError;
  }
}

function head(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

function parsed(text: string): ResponseHead {
  const h = parseResponseHead(head(text));
  if (h === undefined) throw new Error(`no head in ${JSON.stringify(text)}`);
  return h;
}

/** `buf` cut at the given (sorted, deduplicated) offsets. */
function splitAt(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(buf.subarray(from, p));
    from = p;
  }
  out.push(buf.subarray(from));
  return out;
}

// RFC 9110 §5.1 token, §5.5 field-value (no leading or trailing whitespace), §4 reason-phrase.
const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const token = fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength: 20 });
const vchar = fc.oneof(
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
);
const fieldValue = fc.oneof(
  fc.constant(''),
  fc
    .tuple(vchar, fc.string({ unit: fc.oneof(vchar, fc.constantFrom(' ', '\t')), maxLength: 40 }), vchar)
    .map(([a, mid, b]) => `${a}${mid}${b}`),
  vchar,
);
const ows = fc.constantFrom('', ' ', '\t', '  ', ' \t');
const reason = fc.string({ unit: fc.oneof(vchar, fc.constantFrom(' ', '\t')), maxLength: 30 });
const field = fc.record({ name: token, value: fieldValue, before: ows, after: ows });

describe('parseResponseHead', () => {
  it('reads a status line and fields: lower-case names, a repeated field in order, the head’s length', () => {
    const text =
      'HTTP/1.1 206 Partial Content\r\nContent-Length: 5\r\nX-Many: a\r\nx-many:  b \r\nX-MANY:\tc\r\nEmpty:\r\n\r\nhello';
    const h = parsed(text);
    expect(h.status).toBe(206);
    expect(h.statusText).toBe('Partial Content');
    expect(h.headers).toEqual({ 'content-length': '5', 'x-many': ['a', 'b', 'c'], empty: '' });
    expect(h.length).toBe(text.length - 'hello'.length);
    // HTTP/1.0 answers are HTTP/1.1's subset; a reason phrase may be absent (RFC 9112 §4).
    expect(parsed('HTTP/1.0 200 \r\n\r\n').statusText).toBe('');
    expect(parsed('HTTP/1.1 404\r\n\r\n').status).toBe(404);
  });

  it('answers undefined until the empty line arrives', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n';
    for (let i = 0; i < text.length; i++) expect(parseResponseHead(head(text.slice(0, i)))).toBeUndefined();
    expect(parseResponseHead(head(text))?.length).toBe(text.length);
  });

  it('fields named like Object.prototype’s members are plain fields', () => {
    const h = parsed('HTTP/1.1 200 OK\r\n__proto__: x\r\nconstructor: y\r\ntoString: z\r\n\r\n');
    expect(Object.keys(h.headers).sort()).toEqual(['__proto__', 'constructor', 'tostring']);
    expect(h.headers.constructor).toBe('y');
    expect(framingOf('GET', h)).toEqual({ kind: 'close' });
  });

  it('round trip: a generated head, cut anywhere, parses to its fields once whole (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        reason,
        fc.array(field, { maxLength: 20 }),
        fc.uint8Array({ maxLength: 64 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (status, why, fields, after, cuts) => {
          const lines = [`HTTP/1.1 ${status} ${why}`];
          for (const f of fields) lines.push(`${f.name}:${f.before}${f.value}${f.after}`);
          const headText = `${lines.join('\r\n')}\r\n\r\n`;
          const whole = Buffer.concat([head(headText), Buffer.from(after)]);
          // Fed as it might arrive: the pieces so far, concatenated (as h1.ts does).
          let so = Buffer.alloc(0);
          let got: ResponseHead | undefined;
          for (const piece of splitAt(whole, cuts)) {
            so = Buffer.concat([so, piece]);
            got = parseResponseHead(so);
            if (so.length < headText.length) expect(got).toBeUndefined();
          }
          expect(got).toBeDefined();
          const h = got as ResponseHead;
          expect(h.status).toBe(status);
          expect(h.statusText).toBe(why);
          expect(h.length).toBe(headText.length);
          const expected = new Map<string, string[]>();
          for (const f of fields) {
            const name = f.name.toLowerCase();
            expected.set(name, [...(expected.get(name) ?? []), f.value]);
          }
          const want = [...expected].map(([k, v]) => [k, v.length === 1 ? v[0] : v]);
          const got2 = Object.entries(h.headers);
          expect(got2.sort()).toEqual(want.sort());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes: a head, undefined or MalformedAnswerError, nothing else (fuzz)', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      // Near-heads: a plausible start with arbitrary text, so the parser's later branches run.
      fc
        .tuple(
          fc.constantFrom('HTTP/1.1 200 OK\r\n', 'HTTP/1.1 ', 'HTTP/1.0 1', 'HTTP/1.1 200 OK\r\nX:'),
          fc.string({ unit: fc.constantFrom('\r', '\n', ' ', ':', 'a', '\t', '\x00', '\x7f', 'é') }),
          fc.constantFrom('', '\r\n\r\n', '\n\n'),
        )
        .map(([a, b, c]) => head(a + b + c)),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const r = onlyMalformed(() => parseResponseHead(Buffer.from(b)));
        if (r !== undefined && !(r instanceof MalformedAnswerError)) {
          expect(r.length).toBeLessThanOrEqual(b.length);
          expect(r.status).toBeGreaterThanOrEqual(100);
          expect(r.status).toBeLessThanOrEqual(999);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a head over 16 KiB, whole or still coming, and takes one of exactly 16 KiB', () => {
    expect(MAX_HEAD_BYTES).toBe(16 * 1024);
    const exact = (size: number) => {
      const start = 'HTTP/1.1 200 OK\r\nX: ';
      return head(`${start}${'a'.repeat(size - start.length - 4)}\r\n\r\n`);
    };
    expect(parseResponseHead(exact(16 * 1024))?.length).toBe(16 * 1024);
    expect(() => parseResponseHead(exact(16 * 1024 + 1))).toThrow(MalformedAnswerError);
    // Many short fields add up the same.
    const many = `HTTP/1.1 200 OK\r\n${'x: y\r\n'.repeat(3000)}\r\n`;
    expect(() => parseResponseHead(head(many))).toThrow(MalformedAnswerError);
    // No end in sight: refused once past the cap, not held on to.
    expect(() => parseResponseHead(head(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(17 * 1024)}`))).toThrow(
      MalformedAnswerError,
    );
    expect(() => parseResponseHead(Buffer.alloc(MAX_HEAD_BYTES + 1, 0x61))).toThrow(MalformedAnswerError);
    // A small head followed by a large body is a head: the body is not the head's.
    const body = Buffer.alloc(64 * 1024, 0x0d);
    expect(parseResponseHead(Buffer.concat([head('HTTP/1.1 200 OK\r\n\r\n'), body]))?.length).toBe(19);
  });

  it.each([
    ['obs-fold (a line folded onto the one before)', 'HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n'],
    ['obs-fold with a tab', 'HTTP/1.1 200 OK\r\nX: a\r\n\tb\r\n\r\n'],
    ['a bare LF inside the fields', 'HTTP/1.1 200 OK\r\nX: a\nY: b\r\n\r\n'],
    ['a bare LF after the status line', 'HTTP/1.1 200 OK\nX: a\r\n\r\n'],
    ['a bare CR in a value', 'HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n'],
    ['a NUL in a value', 'HTTP/1.1 200 OK\r\nX: a\x00b\r\n\r\n'],
    ['DEL in a value', 'HTTP/1.1 200 OK\r\nX: a\x7fb\r\n\r\n'],
    ['a space before the colon', 'HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n'],
    ['whitespace before the first field', 'HTTP/1.1 200 OK\r\n Content-Length: 5\r\n\r\n'],
    ['a field without a colon', 'HTTP/1.1 200 OK\r\nContent-Length 5\r\n\r\n'],
    ['an empty field name', 'HTTP/1.1 200 OK\r\n: 5\r\n\r\n'],
    ['a name with a separator', 'HTTP/1.1 200 OK\r\nX(y): 5\r\n\r\n'],
    ['HTTP/2 in the status line', 'HTTP/2 200 OK\r\n\r\n'],
    ['HTTP/1.2', 'HTTP/1.2 200 OK\r\n\r\n'],
    ['lower-case http', 'http/1.1 200 OK\r\n\r\n'],
    ['a two-digit status', 'HTTP/1.1 20 OK\r\n\r\n'],
    ['a four-digit status', 'HTTP/1.1 2000 OK\r\n\r\n'],
    ['a status below 100', 'HTTP/1.1 099 OK\r\n\r\n'],
    ['two spaces before the status', 'HTTP/1.1  200 OK\r\n\r\n'],
    ['leading whitespace', ' HTTP/1.1 200 OK\r\n\r\n'],
    ['an HTTP/0.9 answer (no status line)', '<html>hello</html>\r\n\r\n'],
    ['a request line', 'GET / HTTP/1.1\r\n\r\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => parseResponseHead(head(text))).toThrow(MalformedAnswerError);
  });

  it('a head with bare-LF line ends is never taken for a head', () => {
    // RFC 9112 §2.2 lets a recipient accept a bare LF; this parser does not. It may wait for a CRLF
    // pair that never comes (bounded by the cap and the transport's deadline) but never reads one.
    const text = 'HTTP/1.1 200 OK\nContent-Length: 5\n\nhello';
    const r = onlyMalformed(() => parseResponseHead(head(text)));
    expect(r === undefined || r instanceof MalformedAnswerError).toBe(true);
    expect(() => parseResponseHead(head(`${text}\r\n\r\n`))).toThrow(MalformedAnswerError);
  });
});

describe('framingOf', () => {
  const h = (status: number, headers: Record<string, string | string[]> = {}): ResponseHead => ({
    status,
    statusText: '',
    headers,
    length: 0,
  });

  it('has no body for HEAD, 1xx, 204 and 304, whatever the fields say (RFC 9112 §6.3)', () => {
    for (const [method, status] of [
      ['HEAD', 200],
      ['GET', 100],
      ['GET', 103],
      ['GET', 204],
      ['GET', 304],
      ['PUT', 204],
    ] as const) {
      expect(framingOf(method, h(status, { 'content-length': '10' }))).toEqual({ kind: 'none' });
      expect(framingOf(method, h(status, { 'transfer-encoding': 'chunked' }))).toEqual({ kind: 'none' });
    }
  });

  it('chunked, by length, or up to the close', () => {
    expect(framingOf('GET', h(200, { 'transfer-encoding': 'chunked' }))).toEqual({ kind: 'chunked' });
    expect(framingOf('GET', h(200, { 'transfer-encoding': 'Chunked' }))).toEqual({ kind: 'chunked' });
    expect(framingOf('GET', h(200, { 'transfer-encoding': ' chunked ' }))).toEqual({ kind: 'chunked' });
    expect(framingOf('GET', h(200, { 'content-length': '0' }))).toEqual({ kind: 'length', length: 0 });
    expect(framingOf('PUT', h(201, { 'content-length': '5242880' }))).toEqual({
      kind: 'length',
      length: 5242880,
    });
    // The same length repeated is one length (RFC 9110 §8.6).
    expect(framingOf('GET', h(200, { 'content-length': ['7', '7'] }))).toEqual({ kind: 'length', length: 7 });
    expect(framingOf('GET', h(200))).toEqual({ kind: 'close' });
    expect(framingOf('GET', h(404))).toEqual({ kind: 'close' });
  });

  it.each([
    ['both Transfer-Encoding and Content-Length', { 'transfer-encoding': 'chunked', 'content-length': '5' }],
    ['a coding other than chunked', { 'transfer-encoding': 'gzip' }],
    ['identity', { 'transfer-encoding': 'identity' }],
    ['chunked not last', { 'transfer-encoding': 'chunked, gzip' }],
    ['chunked twice', { 'transfer-encoding': ['chunked', 'chunked'] }],
    ['an empty Transfer-Encoding', { 'transfer-encoding': '' }],
    ['a Content-Length that is not a number', { 'content-length': 'abc' }],
    ['a negative Content-Length', { 'content-length': '-1' }],
    ['a fractional Content-Length', { 'content-length': '1.5' }],
    ['a hexadecimal Content-Length', { 'content-length': '0x10' }],
    ['an empty Content-Length', { 'content-length': '' }],
    ['Content-Length with a sign', { 'content-length': '+5' }],
    ['two different Content-Lengths', { 'content-length': ['5', '6'] }],
    ['a Content-Length past 2^53', { 'content-length': '9999999999999999' }],
  ])('refuses %s', (_what, headers) => {
    expect(() => framingOf('GET', h(200, headers as Record<string, string | string[]>))).toThrow(
      MalformedAnswerError,
    );
  });

  it('any fields: a framing or MalformedAnswerError (fuzz)', () => {
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('chunked', 'CHUNKED', 'gzip, chunked', '5', '05', '5, 5', ' 5'),
    );
    const one = fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 3 }));
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'HEAD', 'PUT'),
        fc.integer({ min: 100, max: 599 }),
        fc.option(one, { nil: undefined }),
        fc.option(one, { nil: undefined }),
        (method, status, te, cl) => {
          const headers: Record<string, string | string[]> = {};
          if (te !== undefined) headers['transfer-encoding'] = te;
          if (cl !== undefined) headers['content-length'] = cl;
          const f = onlyMalformed(() => framingOf(method, h(status, headers)));
          if (!(f instanceof MalformedAnswerError) && f.kind === 'length') {
            expect(Number.isSafeInteger(f.length) && f.length >= 0).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** Decodes `pieces` with a fresh decoder: the data, whether it finished, and the bytes after. */
function decode(pieces: Buffer[]): { data: Buffer; done: boolean; rest: Buffer } {
  const data: Buffer[] = [];
  const decoder = new ChunkedDecoder((c) => data.push(Buffer.from(c)));
  let done = false;
  const rest: Buffer[] = [];
  for (const p of pieces) {
    if (done) {
      rest.push(p);
      continue;
    }
    done = decoder.push(p);
    if (done && decoder.rest) rest.push(decoder.rest);
  }
  return { data: Buffer.concat(data), done, rest: Buffer.concat(rest) };
}

function chunkedText(chunks: string[], trailers = ''): Buffer {
  return head(`${chunks.map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('')}0\r\n${trailers}\r\n`);
}

describe('ChunkedDecoder', () => {
  it('decodes chunks, extensions and trailers, and leaves what follows in rest', () => {
    const wire = head(
      '5;name=value\r\nhello\r\n1 ; x\r\n,\r\n0A\r\n 012345678\r\n0\r\nX-Trailer: t\r\n\r\nNEXT',
    );
    const r = decode([wire]);
    expect(r).toEqual({ data: Buffer.from('hello, 012345678'), done: true, rest: Buffer.from('NEXT') });
    expect(decode([chunkedText([])]).data.length).toBe(0);
  });

  it('round trip: chunks of any bytes, any sizes in any hex case, cut anywhere (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            data: fc.uint8Array({ minLength: 1, maxLength: 300 }),
            upper: fc.boolean(),
            zeros: fc.integer({ min: 0, max: 3 }),
            ext: fc.constantFrom('', ';a', ';a=b', ' ;a="q"', '\t;x=y;z'),
          }),
          { maxLength: 12 },
        ),
        fc.array(fc.record({ name: token, value: fieldValue }), { maxLength: 4 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (chunks, trailers, after, cuts) => {
          const parts: Buffer[] = [];
          for (const c of chunks) {
            let size = c.data.length.toString(16);
            size = '0'.repeat(c.zeros) + (c.upper ? size.toUpperCase() : size);
            parts.push(head(`${size}${c.ext}\r\n`), Buffer.from(c.data), head('\r\n'));
          }
          parts.push(head(`0\r\n${trailers.map((t) => `${t.name}: ${t.value}\r\n`).join('')}\r\n`));
          const body = Buffer.concat(parts);
          const wire = Buffer.concat([body, Buffer.from(after)]);
          const r = decode(splitAt(wire, cuts));
          expect(r.done).toBe(true);
          expect(r.data.equals(Buffer.concat(chunks.map((c) => Buffer.from(c.data))))).toBe(true);
          expect(r.rest.equals(Buffer.from(after))).toBe(true);
          // Short of its last byte it is not done.
          expect(decode(splitAt(body.subarray(0, body.length - 1), cuts)).done).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('one byte at a time decodes as one piece does', () => {
    const wire = chunkedText(['abc', 'x'.repeat(300), 'z'], 'T: 1\r\n');
    const bytes = [...wire].map((b) => Buffer.from([b]));
    expect(decode(bytes).data.toString()).toBe(`abc${'x'.repeat(300)}z`);
    expect(decode(bytes).done).toBe(true);
  });

  it('hands data on as views of the buffers pushed, not copies', () => {
    const wire = chunkedText(['hello']);
    const seen: Buffer[] = [];
    new ChunkedDecoder((c) => seen.push(c)).push(wire);
    expect(seen).toHaveLength(1);
    expect((seen[0] as Buffer).buffer).toBe(wire.buffer);
  });

  it('arbitrary bytes: data, done or MalformedAnswerError, nothing else and in bounded time (fuzz)', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 400 }),
      fc
        .array(fc.constantFrom('0', '5', 'a', 'F', ';', '\r\n', '\n', '\r', ' ', 'x', 'hello', ':', 'g'), {
          maxLength: 60,
        })
        .map((a) => head(a.join(''))),
    );
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 5 }), (b, cuts) => {
        const buf = Buffer.from(b);
        let got = 0;
        const decoder = new ChunkedDecoder((c) => {
          got += c.length;
        });
        const r = onlyMalformed(() => {
          let done = false;
          for (const p of splitAt(buf, cuts)) if (!done) done = decoder.push(p);
          return done;
        });
        // It never hands on more than it was given.
        expect(got).toBeLessThanOrEqual(buf.length);
        if (r === true) expect(decoder.rest === undefined || decoder.rest.length <= buf.length).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['a chunk size with junk after it', '5x\r\nhello\r\n0\r\n\r\n'],
    ['a chunk size with a word after a space', '5 x\r\nhello\r\n0\r\n\r\n'],
    ['a negative chunk size', '-5\r\nhello\r\n0\r\n\r\n'],
    ['a chunk size with 0x', '0x5\r\nhello\r\n0\r\n\r\n'],
    ['a chunk size with a sign', '+5\r\nhello\r\n0\r\n\r\n'],
    ['an empty chunk size line', '\r\nhello\r\n0\r\n\r\n'],
    ['whitespace before the chunk size', ' 5\r\nhello\r\n0\r\n\r\n'],
    ['a non-hex chunk size', 'g\r\nhello\r\n0\r\n\r\n'],
    ['a chunk size of 13 hex digits', '1000000000000\r\nhello\r\n0\r\n\r\n'],
    ['a bare LF after the chunk size', '5\nhello\r\n0\r\n\r\n'],
    ['a chunk longer than its size (no CRLF after its data)', '5\r\nhelloX\r\n0\r\n\r\n'],
    ['a bare LF after the chunk data', '5\r\nhello\n0\r\n\r\n'],
    ['a bare CR after the chunk data', '5\r\nhello\r0\r\n\r\n'],
    ['a malformed trailer', '0\r\nnot a field\r\n\r\n'],
    ['a trailer with a space before its colon', '0\r\nX : y\r\n\r\n'],
    ['a bare LF ending the trailers', '0\r\n\n'],
    ['a CR in a chunk extension', '5;a\rb\r\nhello\r\n0\r\n\r\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => decode([head(text)])).toThrow(MalformedAnswerError);
    // Cut anywhere, the same.
    expect(() => decode([...head(text)].map((b) => Buffer.from([b])))).toThrow(MalformedAnswerError);
  });

  it('refuses an overlong chunk line before it ends, and overlong trailers', () => {
    // 10 KiB of chunk extension with no line end yet: refused as it comes, not held.
    const decoder = new ChunkedDecoder(() => {});
    expect(() => {
      decoder.push(head('5;'));
      for (let i = 0; i < 10; i++) decoder.push(head(`a=${'b'.repeat(1022)}`));
    }).toThrow(MalformedAnswerError);
    expect(() => decode([head(`5;x=${'y'.repeat(5000)}\r\nhello\r\n0\r\n\r\n`)])).toThrow(
      MalformedAnswerError,
    );
    // A long line after the data where CRLF belongs.
    expect(() => decode([head(`5\r\nhello${'z'.repeat(8000)}`)])).toThrow(MalformedAnswerError);
    // Trailers past 16 KiB, in many short lines or in one, with or without their end.
    const many = `0\r\n${'T: v\r\n'.repeat(4000)}\r\n`;
    expect(() => decode([head(many)])).toThrow(MalformedAnswerError);
    expect(() => decode([head(`0\r\nT: ${'v'.repeat(20_000)}`)])).toThrow(MalformedAnswerError);
    // Within the bounds, a long extension and trailers are fine.
    expect(
      decode([head(`5;x=${'y'.repeat(3000)}\r\nhello\r\n0\r\n${'T: v\r\n'.repeat(1000)}\r\n`)]).done,
    ).toBe(true);
  });
});

describe('ChunkedDecoder against node’s own chunked encoder (witness)', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  /** The raw bytes of node's answer to one request, with `writes` (and trailers) written chunked. */
  async function rawAnswer(writes: Buffer[], trailers?: Record<string, string>): Promise<Buffer> {
    const server = createServer((_req, res) => {
      res.writeHead(200, trailers ? { trailer: Object.keys(trailers).join(', ') } : {});
      const next = (i: number) => {
        if (i === writes.length) {
          if (trailers) res.addTrailers(trailers);
          res.end();
          return;
        }
        res.write(writes[i], () => next(i + 1));
      };
      next(0);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => {
        s.write('GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
      });
      const got: Buffer[] = [];
      s.on('data', (b: Buffer) => got.push(b));
      s.on('end', () => resolve(Buffer.concat(got)));
      s.on('error', reject);
    });
  }

  it('decodes what node writes, as it arrived and cut anywhere (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 5000 }), { maxLength: 10 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (writes, withTrailers, cuts) => {
          const raw = await rawAnswer(
            writes.map((w) => Buffer.from(w)),
            withTrailers ? { 'x-digest': 'sha256:abc' } : undefined,
          );
          const h = parseResponseHead(raw) as ResponseHead;
          expect(h.status).toBe(200);
          expect(framingOf('GET', h)).toEqual({ kind: 'chunked' });
          const r = decode(splitAt(raw.subarray(h.length), cuts));
          expect(r.done).toBe(true);
          expect(r.data.equals(Buffer.concat(writes.map((w) => Buffer.from(w))))).toBe(true);
          expect(r.rest.length).toBe(0);
        },
      ),
      { numRuns: 25 },
    );
  });
});
