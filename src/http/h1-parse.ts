// HTTP/1.1 answers as they come off a socket, for the blob transport (layers/h1.ts): the head (status
// line and header fields, RFC 9112 §4–5) and a chunked body (§7.1). Strict and bounded: what is not
// plainly HTTP/1.1 is an error, never a guess, so that no answer is read two ways (smuggling).

/** The most a head may take, as node's own HTTP parser allows (--max-http-header-size). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** A chunk-size line with its extensions, and a trailer section, are short. */
const MAX_CHUNK_LINE = 4096;
const MAX_TRAILERS = 16 * 1024;

export class MalformedAnswerError extends Error {
  readonly code = 'HPE_INVALID';
}

export interface ResponseHead {
  status: number;
  statusText: string;
  /** Lower-case names; a repeated field gives an array, in order. */
  headers: Record<string, string | string[]>;
  /** Bytes of the buffer the head took (through its empty line). */
  length: number;
}

const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([\t !-~\x80-\xff]*))?$/;
/** A field name (RFC 9110 §5.1, a token), and a field value's characters (§5.5, no CR, LF or NUL). */
export const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
export const FIELD_VALUE = /^[\t !-~\x80-\xff]*$/;

/**
 * One field line (RFC 9112 §5: name ":" OWS value OWS) as [lower-case name, value], or undefined
 * when it is none. Split by hand, each pattern anchored and without alternatives: one pattern for
 * the whole line (blanks, a lazy value, blanks) backtracked over every split of a run of blanks, in
 * time cubic in its length (a 16 KiB head held the thread for minutes).
 */
function fieldLine(line: string): [string, string] | undefined {
  const colon = line.indexOf(':');
  if (colon <= 0) return undefined;
  const name = line.slice(0, colon);
  if (!FIELD_NAME.test(name)) return undefined;
  let start = colon + 1;
  let end = line.length;
  while (start < end && (line[start] === ' ' || line[start] === '\t')) start++;
  while (end > start && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  const value = line.slice(start, end);
  return FIELD_VALUE.test(value) ? [name.toLowerCase(), value] : undefined;
}

/**
 * The head at the start of `buf`: undefined while its empty line has not arrived (and the buffer
 * is within MAX_HEAD_BYTES); MalformedAnswerError for anything else that is not a head.
 */
export function parseResponseHead(buf: Buffer): ResponseHead | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) {
    if (buf.length > MAX_HEAD_BYTES)
      throw new MalformedAnswerError(`the answer's head is over ${MAX_HEAD_BYTES / 1024} KiB`);
    return undefined;
  }
  if (end + 4 > MAX_HEAD_BYTES)
    throw new MalformedAnswerError(`the answer's head is over ${MAX_HEAD_BYTES / 1024} KiB`);
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  const status = STATUS_LINE.exec(lines[0] as string);
  if (!status) throw new MalformedAnswerError('the answer does not begin with an HTTP/1.1 status line');
  const headers: Record<string, string | string[]> = Object.create(null);
  for (let i = 1; i < lines.length; i++) {
    const field = fieldLine(lines[i] as string);
    // A line folded onto the one before (obs-fold), a bare CR or LF, a name with a space: refused.
    if (!field) throw new MalformedAnswerError('the answer has a malformed header line');
    const [name, value] = field;
    const seen = headers[name];
    if (seen === undefined) headers[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else headers[name] = [seen, value];
  }
  return {
    status: Number(status[2]),
    statusText: status[3] ?? '',
    headers: { ...headers },
    length: end + 4,
  };
}

/** How the body after a head is framed (RFC 9112 §6.3), for an answer to `method`. */
export type Framing =
  | { kind: 'none' }
  | { kind: 'length'; length: number }
  | { kind: 'chunked' }
  | { kind: 'close' };

export function framingOf(method: string, head: ResponseHead): Framing {
  if (method === 'HEAD' || head.status === 204 || head.status === 304 || head.status < 200)
    return { kind: 'none' };
  const te = head.headers['transfer-encoding'];
  const cl = head.headers['content-length'];
  if (te !== undefined) {
    // Both is how a request is smuggled; another coding than chunked last has no end we could find.
    if (cl !== undefined)
      throw new MalformedAnswerError('the answer has both Transfer-Encoding and Content-Length');
    const codings = (Array.isArray(te) ? te.join(',') : te).split(',').map((c) => c.trim().toLowerCase());
    if (codings.length !== 1 || codings[0] !== 'chunked') {
      throw new MalformedAnswerError(
        `the answer's Transfer-Encoding is not chunked (${codings.join(', ').slice(0, 40)})`,
      );
    }
    return { kind: 'chunked' };
  }
  if (cl !== undefined) {
    const values = Array.isArray(cl) ? cl : [cl];
    if (!values.every((v) => v === values[0]) || !/^\d{1,15}$/.test(values[0] as string)) {
      throw new MalformedAnswerError('the answer has an invalid Content-Length');
    }
    return { kind: 'length', length: Number(values[0]) };
  }
  return { kind: 'close' };
}

/**
 * A chunked body, decoded as its bytes arrive: `push` hands each piece of data to `onData` (views
 * into the buffers given, no copies) and answers true once the last chunk and the trailers are
 * through, with `rest` the bytes after them. Trailers are read and dropped.
 */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'data-end' | 'trailers' | 'done' = 'size';
  private left = 0;
  private line = '';
  private trailerBytes = 0;
  rest: Buffer | undefined;

  constructor(private readonly onData: (chunk: Buffer) => void) {}

  push(buf: Buffer): boolean {
    let i = 0;
    while (i < buf.length) {
      switch (this.state) {
        case 'data': {
          const n = Math.min(this.left, buf.length - i);
          this.onData(buf.subarray(i, i + n));
          i += n;
          this.left -= n;
          if (this.left === 0) this.state = 'data-end';
          break;
        }
        case 'size':
        case 'data-end':
        case 'trailers': {
          const lf = buf.indexOf(10, i);
          const stop = lf < 0 ? buf.length : lf + 1;
          this.line += buf.toString('latin1', i, stop);
          i = stop;
          if (this.line.length > (this.state === 'trailers' ? MAX_TRAILERS : MAX_CHUNK_LINE)) {
            throw new MalformedAnswerError('the answer has an overlong chunk line');
          }
          if (lf < 0) break;
          const line = this.line;
          this.line = '';
          if (!line.endsWith('\r\n'))
            throw new MalformedAnswerError('the answer has a chunk line without CR LF');
          this.onLine(line.slice(0, -2));
          if ((this.state as string) === 'done') {
            this.rest = buf.subarray(i);
            return true;
          }
          break;
        }
        case 'done':
          return true;
      }
    }
    return this.state === 'done';
  }

  private onLine(line: string): void {
    if (this.state === 'data-end') {
      if (line !== '') throw new MalformedAnswerError('a chunk of the answer is longer than its size');
      this.state = 'size';
      return;
    }
    if (this.state === 'trailers') {
      this.trailerBytes += line.length + 2;
      if (this.trailerBytes > MAX_TRAILERS)
        throw new MalformedAnswerError('the answer has overlong trailers');
      if (line === '') this.state = 'done';
      else if (!fieldLine(line)) throw new MalformedAnswerError('the answer has a malformed trailer line');
      return;
    }
    // chunk-size [ chunk-ext ]: hex digits, then extensions we ignore (but only well-formed ones).
    const m = /^([0-9A-Fa-f]{1,12})[ \t]*(;[\t !-~\x80-\xff]*)?$/.exec(line);
    if (!m) throw new MalformedAnswerError('the answer has a malformed chunk size');
    const size = Number.parseInt(m[1] as string, 16);
    if (size === 0) this.state = 'trailers';
    else {
      this.left = size;
      this.state = 'data';
    }
  }
}
