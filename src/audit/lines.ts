// Splits a stream of bytes into lines of UTF-8 text, each at most `cap` bytes: a longer line is
// reported by its number and its bytes are dropped as they arrive, so memory stays bounded by the
// cap and one chunk whatever the input (a 1 GB line costs no more than a 1 KB one). PURE: no IO.

export interface LineSink {
  line(text: string, lineNo: number): void;
  tooLong(lineNo: number): void;
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
    let start = 0;
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
