// NDJSON (one JSON value a line) read in batches, in bounded memory: a line longer than the cap is
// refused as soon as the cap is passed, without holding it whole. One entry point, readNdjson();
// the line splitter below it is pure and tested with generated input.
import { ValidationError } from '../errors.js';

/** An audit record is about a kilobyte; a line a thousand times that is not one. */
export const MAX_LINE_BYTES = 1024 * 1024;

export class LineTooLongError extends ValidationError {}

/**
 * Splits chunks into lines (LF, an optional CR before it dropped; empty lines skipped). Returns the
 * complete lines of the chunk; the unfinished rest is kept for the next call. `end()` gives the last
 * line when the input does not end with a newline.
 */
export class LineSplitter {
  private carry: Buffer | undefined;
  /** Lines read so far, empty ones included. */
  lineNo = 0;
  /** The line numbers of the lines the last push() or end() returned. */
  numbers: number[] = [];

  constructor(
    private readonly name: string,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): string[] {
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = undefined;
    this.numbers = [];
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl === -1) break;
      this.take(buf, start, nl, lines);
      start = nl + 1;
    }
    if (start < buf.length) {
      if (buf.length - start > this.maxBytes) throw this.tooLong(this.lineNo + 1);
      // A copy: a 64 KiB chunk is not kept alive for the sake of its last few bytes.
      this.carry = Buffer.from(buf.subarray(start));
    }
    return lines;
  }

  end(): string[] {
    const rest = this.carry;
    this.carry = undefined;
    this.numbers = [];
    const lines: string[] = [];
    if (rest && rest.length > 0) this.take(rest, 0, rest.length, lines);
    return lines;
  }

  private take(buf: Buffer, start: number, end: number, lines: string[]): void {
    this.lineNo++;
    let stop = end;
    if (stop > start && buf[stop - 1] === 13) stop--;
    if (stop - start > this.maxBytes) throw this.tooLong(this.lineNo);
    if (stop > start) {
      lines.push(buf.toString('utf8', start, stop));
      this.numbers.push(this.lineNo);
    }
  }

  private tooLong(line: number): LineTooLongError {
    return lineTooLong(this.name, line, this.maxBytes);
  }
}

/** The error for line `line` of `name` longer than maxBytes. */
export function lineTooLong(name: string, line: number, maxBytes: number): LineTooLongError {
  return new LineTooLongError(
    `${name} line ${line} is longer than ${Math.round(maxBytes / 1024)} KiB: not an audit record`,
  );
}

/** Parses one line; a line that is not a JSON object is refused, naming the file and line. */
export function parseLine(line: string, name: string, lineNo: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ValidationError(`${name} line ${lineNo} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ValidationError(`${name} line ${lineNo} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** The objects of an NDJSON stream, a chunk's worth at a time. */
export async function* readNdjson(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  name: string,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<Record<string, unknown>[]> {
  const splitter = new LineSplitter(name, maxBytes);
  const parse = (lines: string[]) => lines.map((l, i) => parseLine(l, name, splitter.numbers[i]!));
  for await (const chunk of chunks) {
    const lines = splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (lines.length > 0) yield parse(lines);
  }
  const last = splitter.end();
  if (last.length > 0) yield parse(last);
}
