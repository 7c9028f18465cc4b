// Splits a stream of bytes into lines of UTF-8 text, each at most `cap` bytes: a longer line is
// reported by its number and its bytes are dropped as they arrive, so memory stays bounded by the
// cap and one chunk whatever the input (a 1 GB line costs no more than a 1 KB one). PURE: no IO.

import { isAscii } from 'node:buffer';

export interface LineSink {
  line(text: string, lineNo: number): void;
  tooLong(lineNo: number): void;
  /**
   * A line given as text[start, end) of several lines decoded at once, when the sink takes lines so
   * (else each is given to `line` on its own). `ascii`: the text's bytes when they are all ASCII
   * (then ascii[i] is text.charCodeAt(i)), else null. Both are only lent: what outlives the call must
   * be copied out of them.
   */
  lineIn?(text: string, start: number, end: number, lineNo: number, ascii: Uint8Array | null): void;
}

/** The bytes decoded at once for a sink that takes lines in a block (lineIn), about. */
const BLOCK = 32 * 1024;

/**
 * The end (a LF) of the block of lines of buf starting at `from`, up to `last` (a LF): about BLOCK
 * bytes of whole lines, or the one line at `from` when it is longer. A string much larger than a
 * block is slower to make than its lines are; one a block is quicker than one a line.
 */
export function blockEnd(buf: Buffer, from: number, last: number): number {
  const to = from + BLOCK >= last ? last : buf.lastIndexOf(10, from + BLOCK);
  return to < from ? buf.indexOf(10, from) : to;
}

export class LineSplitter {
  private carry: Buffer[] = [];
  private carried = 0;
  /** Inside a line already over the cap: drop bytes until its end. */
  private dropping = false;
  private lineNo = 0;

  constructor(
    private readonly sink: LineSink,
    private readonly cap: number,
  ) {}

  push(chunk: Buffer): void {
    if (this.sink.lineIn !== undefined && chunk.length <= this.cap) {
      this.pushBlock(chunk, this.sink.lineIn.bind(this.sink));
      return;
    }
    this.pushFrom(chunk, 0);
  }

  /**
   * push() for a sink that takes lines in a block: the line carried over is ended as push() ends it;
   * the complete lines after it are decoded a block at a time and given as ranges of its text (none
   * is over the cap: the chunk is not); the unfinished rest is kept as push() keeps it. One string a
   * block instead of one a line: the sink reads a line in place and copies out only what it keeps.
   */
  private pushBlock(
    chunk: Buffer,
    lineIn: (text: string, start: number, end: number, lineNo: number, ascii: Uint8Array | null) => void,
  ): void {
    const first = chunk.indexOf(10);
    if (first < 0) {
      this.pushFrom(chunk, 0);
      return;
    }
    this.pushFrom(chunk.subarray(0, first + 1), 0);
    const last = chunk.lastIndexOf(10);
    // LF is one byte of UTF-8 and never inside a character's: a block of lines decodes as its lines
    // do.
    for (let from = first + 1; from <= last; ) {
      const to = blockEnd(chunk, from, last);
      const bytes = chunk.subarray(from, to + 1);
      const ascii = isAscii(bytes) ? bytes : null;
      const text = chunk.toString(ascii === null ? 'utf8' : 'latin1', from, to + 1);
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (nl < 0) break;
        this.lineNo++;
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        lineIn(text, start, end, this.lineNo, ascii);
        start = nl + 1;
      }
      from = to + 1;
    }
    if (last + 1 < chunk.length) this.keep(chunk, last + 1, chunk.length);
  }

  private pushFrom(chunk: Buffer, from: number): void {
    let start = from;
    const n = chunk.length;
    while (start < n) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) {
        if (!this.dropping) this.keep(chunk, start, n);
        return;
      }
      this.lineNo++;
      if (this.dropping) {
        // the end of a line already reported as too long
        this.dropping = false;
      } else if (this.carried === 0) {
        if (nl - start > this.cap) this.sink.tooLong(this.lineNo);
        else this.sink.line(chunk.toString('utf8', start, trimCr(chunk, start, nl)), this.lineNo);
      } else if (this.carried + (nl - start) > this.cap) {
        this.sink.tooLong(this.lineNo);
        this.reset();
      } else {
        this.carry.push(chunk.subarray(start, nl));
        const whole = Buffer.concat(this.carry, this.carried + (nl - start));
        this.reset();
        this.sink.line(whole.toString('utf8', 0, trimCr(whole, 0, whole.length)), this.lineNo);
      }
      start = nl + 1;
    }
  }

  private reset(): void {
    this.carry = [];
    this.carried = 0;
  }

  /** Keeps the bytes of an unfinished line; past the cap, reports it and drops the rest of it. */
  private keep(chunk: Buffer, start: number, end: number): void {
    if (this.carried + (end - start) > this.cap) {
      this.sink.tooLong(this.lineNo + 1);
      this.reset();
      this.dropping = true;
      return;
    }
    if (end > start) {
      // a copy: the stream may reuse the chunk's memory
      this.carry.push(Buffer.from(chunk.subarray(start, end)));
      this.carried += end - start;
    }
  }

  /** The last line, when the input does not end with a newline. */
  end(): void {
    if (this.dropping) {
      this.dropping = false;
      this.lineNo++;
      return;
    }
    if (this.carried > 0) {
      this.lineNo++;
      const whole = Buffer.concat(this.carry, this.carried);
      this.sink.line(whole.toString('utf8', 0, trimCr(whole, 0, whole.length)), this.lineNo);
    }
    this.carry = [];
    this.carried = 0;
  }
}

function trimCr(b: Buffer, start: number, end: number): number {
  return end > start && b[end - 1] === 13 ? end - 1 : end;
}
