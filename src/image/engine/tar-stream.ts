// Reads a tar from a stream, front to back, entry by entry: the engine's export is never staged
// whole. Each entry's body must be consumed (or skipped) before the next header is read.
import { ValidationError } from '../../errors.js';
import { checkPaxSize, MAX_TAR_ENTRIES, parsePax, readOctal, readString } from '../tar.js';

const BLOCK = 512;

export interface StreamEntry {
  name: string;
  size: number;
  /** '0' file, '2' symlink, '5' directory … */
  type: string;
  linkname: string;
  body: AsyncIterable<Buffer>;
}

/** Pulls exact byte counts from a chunked stream. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private readonly it: AsyncIterator<Buffer | string>;
  constructor(source: AsyncIterable<Buffer | string>) {
    this.it = source[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.buf.length < n) {
      const { value, done } = await this.it.next();
      if (done) return false;
      const chunk = typeof value === 'string' ? Buffer.from(value) : value;
      this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    }
    return true;
  }

  async exactly(n: number): Promise<Buffer | undefined> {
    if (!(await this.fill(n))) return undefined;
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Up to `max` bytes, at least one; undefined at the end. */
  async some(max: number): Promise<Buffer | undefined> {
    if (!this.buf.length && !(await this.fill(1))) return undefined;
    const out = this.buf.subarray(0, Math.min(max, this.buf.length));
    this.buf = this.buf.subarray(out.length);
    return out;
  }
}

export async function* readTarStream(
  source: AsyncIterable<Buffer | string>,
  what: string,
  maxEntries = MAX_TAR_ENTRIES,
): AsyncGenerator<StreamEntry> {
  const reader = new ByteReader(source);
  const truncated = () => new ValidationError(`${what}: the archive ends in the middle of an entry`);
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  let count = 0;
  for (;;) {
    const header = await reader.exactly(BLOCK);
    if (!header) return; // some writers omit the two zero blocks
    if (header.every((b) => b === 0)) return;
    const size = readOctal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    if (!Number.isSafeInteger(size) || size < 0)
      throw new ValidationError(`${what}: the archive has a tar header with a bad size field`);
    if (++count > maxEntries)
      throw new ValidationError(`${what}: the archive holds more than ${maxEntries} entries`);
    const prefix = readString(header, 345, 155);
    const base = readString(header, 0, 100);
    const name = pax.path ?? longName ?? (prefix ? `${prefix}/${base}` : base);
    const linkname = pax.linkpath ?? readString(header, 157, 100);
    let left = size;
    const body = async function* (): AsyncGenerator<Buffer> {
      while (left > 0) {
        const chunk = await reader.some(left);
        if (!chunk) throw truncated();
        left -= chunk.length;
        yield chunk;
      }
    };
    if (type === 'x' || type === 'L' || type === 'g') {
      checkPaxSize(size, what);
      const parts: Buffer[] = [];
      for await (const c of body()) parts.push(c);
      const data = Buffer.concat(parts);
      if (type === 'x') pax = parsePax(data);
      else if (type === 'L') longName = readString(data, 0, data.length);
    } else {
      pax = {};
      longName = undefined;
      yield { name: name.replace(/^\.\//, ''), size, type, linkname, body: body() };
      for await (const _ of body()) {
        // whatever the consumer left unread
      }
    }
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad && !(await reader.exactly(pad))) throw truncated();
  }
}
