// `policy eval --batch` on bytes: the compact lines of plain ASCII are read and decided in place
// and their output is assembled from precomputed bytes; any other line is decoded and takes the
// text path (batch-lines.ts). Pure: the command does the reading and writing.

import { Ascii } from './ascii.js';
import {
  type BatchOptions,
  evaluateLine,
  HEAD,
  lineTooLong,
  MAX_LINE_BYTES,
  MIDDLE,
  parseRequestLine,
  TextBatch,
} from './batch-lines.js';
import {
  assertDecidable,
  decide,
  decideHostChars,
  decidePathBytes,
  decisionJson,
  type Evaluator,
  mixedResult,
  NOT_PLAIN,
  type PolicyIndex,
} from './engine.js';
import type { LineTails } from './results.js';

const utf8Out = new TextEncoder();
/** Lines that leave the fast path are decoded alone; a BOM is dropped only at the start of input. */
const utf8In = new TextDecoder('utf-8', { ignoreBOM: true });

const ACTIONS = ['connect:tcp', 'connect:udp', 'read', 'write'] as const;
const HEAD_BYTES = utf8Out.encode(HEAD);
const MIDDLE_BYTES = utf8Out.encode(MIDDLE);

const ACTION_BYTES = ACTIONS.map((action) => utf8Out.encode(action));

/** The known action spelled by b[start, end), as an index into ACTIONS, or -1. */
function actionAt(b: Uint8Array, start: number, end: number): number {
  const len = end - start;
  for (let a = 0; a < ACTION_BYTES.length; a++) {
    const name = ACTION_BYTES[a]!;
    if (name.length !== len) continue;
    let k = 0;
    while (k < len && b[start + k] === name[k]) k++;
    if (k === len) return a;
  }
  return -1;
}

type Latin1 = { latin1Slice?: (start: number, end: number) => string };

/** b[start, end), all ASCII, as a string: Buffer's latin1Slice when there is one. */
function asciiString(b: Uint8Array, start: number, end: number): string {
  const slice = (b as Latin1).latin1Slice;
  if (slice !== undefined) return slice.call(b, start, end);
  // ASCII reads the same in UTF-8
  return utf8In.decode(b.subarray(start, end));
}

/** Where an output slab starts; a slab is handed out in pieces that are never written again. */
const SLAB = 1 << 20;

/**
 * Streams a batch: feed input as it arrives (any chunking), get back the output for the complete
 * lines (one JSON a line, newline-terminated); `end()`/`endBytes()` flush a last line without
 * newline. Bytes in (`pushBytes`) or text in (`push`, the text path of batch-lines.ts).
 */
export class BatchProcessor extends TextBatch {
  /**
   * `readOnly` (for the bench's parse-only figure): read every request exactly as the batch does,
   * then stop: no evaluation, no output; `counts.total` counts the requests read.
   */
  constructor(
    target: PolicyIndex | Evaluator,
    opts?: BatchOptions,
    private readonly readOnly = false,
  ) {
    super(target, opts);
    assertDecidable(this.set);
  }

  /** Bytes of an incomplete last line, waiting for the next chunk (joined once, when it ends). */
  private parts: Uint8Array[] = [];
  /** Their length together: past MAX_LINE_BYTES the line is refused. */
  private partsBytes = 0;
  private slab = new Uint8Array(SLAB);
  /** slab[flushed, pos) is output not yet handed out. */
  private flushed = 0;
  private pos = 0;
  private started = false;
  /** The chunk being scanned, as a plain Uint8Array. */
  private view: Uint8Array = new Uint8Array(0);
  /** The set's host chars, which a plain destination is scanned into (one load a line, not three). */
  private readonly chars: Uint16Array = this.ev.host.chars;
  /** The shared results' line tails, rendered for the first batch of this set. */
  private readonly lineTails: LineTails = this.set.lineTails();

  /**
   * The byte form of `push`: feed the input as it arrives (any chunking), get back the UTF-8 output
   * for the complete lines, or null when there is none yet. The returned bytes are never written
   * again, so a stream may hold on to them. Same output, byte for byte, as `push` on decoded text:
   * compact `{"action":…,"destination":…}` lines of plain ASCII are read in place without decoding,
   * and their output is assembled from precomputed bytes; any other line goes through the text path.
   */
  pushBytes(input: Uint8Array): Uint8Array | null {
    let chunk = input;
    let start = 0;
    if (!this.started) {
      // TextDecoder drops a BOM at the start of a stream; so does this path
      if (this.parts.length > 0) chunk = this.joinParts(chunk, chunk.length);
      if (chunk.length < 3) {
        if (chunk.length > 0) this.keep(chunk);
        return null;
      }
      this.started = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) start = 3;
    } else if (this.parts.length > 0) {
      const nl = chunk.indexOf(Ascii.LineFeed);
      if (nl < 0) {
        this.keep(chunk);
        return null;
      }
      if (this.partsBytes + nl > MAX_LINE_BYTES) throw lineTooLong(this.lineNo + 1);
      const line = this.joinParts(chunk, nl + 1);
      this.scan(line, 0, line.length);
      start = nl + 1;
    }
    const done = this.scan(chunk, start, chunk.length);
    if (done < chunk.length) this.keep(chunk.subarray(done));
    return this.take();
  }

  /** Keeps the start of a line for the next chunk, or refuses a line grown past the cap. */
  private keep(bytes: Uint8Array): void {
    this.partsBytes += bytes.length;
    if (this.partsBytes > MAX_LINE_BYTES) {
      this.parts = [];
      this.partsBytes = 0;
      throw lineTooLong(this.lineNo + 1);
    }
    this.parts.push(bytes.slice());
  }

  /** The output of a last line without newline, or null. */
  endBytes(): Uint8Array | null {
    if (this.parts.length > 0) {
      const rest = this.joinParts(new Uint8Array(0), 0);
      let s = 0;
      if (!this.started && rest.length >= 3 && rest[0] === 0xef && rest[1] === 0xbb && rest[2] === 0xbf)
        s = 3;
      this.started = true;
      s = this.scan(rest, s, rest.length);
      if (s < rest.length) this.line(rest, s, rest.length);
    }
    return this.take();
  }

  /** The waiting parts and b[0, bEnd) as one array; no parts wait afterwards. */
  private joinParts(b: Uint8Array, bEnd: number): Uint8Array {
    let n = bEnd;
    for (const p of this.parts) n += p.length;
    const out = new Uint8Array(n);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    out.set(b.subarray(0, bEnd), at);
    this.parts = [];
    this.partsBytes = 0;
    return out;
  }

  private take(): Uint8Array | null {
    if (this.pos === this.flushed) return null;
    const out = this.slab.subarray(this.flushed, this.pos);
    this.flushed = this.pos;
    return out;
  }

  /** Room for `n` more bytes of output (the slab's unflushed part moves to a new slab if needed). */
  private room(n: number): Uint8Array {
    if (this.pos + n <= this.slab.length) return this.slab;
    const kept = this.pos - this.flushed;
    const next = new Uint8Array(Math.max(SLAB, 2 * (kept + n)));
    next.set(this.slab.subarray(this.flushed, this.pos));
    this.slab = next;
    this.flushed = 0;
    this.pos = kept;
    return next;
  }

  /**
   * Reads the complete lines of b[from, end); returns where the first incomplete line starts (end
   * when every line was complete).
   */
  private scan(b: Uint8Array, from: number, end: number): number {
    // A Buffer's subarray (one per line, to copy its head) goes through Node's Buffer constructor.
    this.view = b.constructor === Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.length);
    let s = from;
    while (s < end) {
      const next = this.fast(b, s, end);
      if (next >= 0) {
        s = next;
        continue;
      }
      let nl = s;
      while (nl < end && b[nl] !== Ascii.LineFeed) nl++;
      if (nl === end) return s;
      if (nl - s > MAX_LINE_BYTES) throw lineTooLong(this.lineNo + 1);
      this.line(b, s, nl);
      s = nl + 1;
    }
    return end;
  }

  /**
   * The fast path for one line at b[s…]: the compact form with ASCII fields free of escapes, a known
   * action and a destination the engine takes. Returns where the next line starts, or -1 when the
   * line must take the text path (or is not complete in this chunk).
   */
  private fast(b: Uint8Array, s: number, end: number): number {
    if (this.opts !== undefined && this.opts.explain === true) return -1;
    const head = HEAD_BYTES;
    if (end - s < head.length + MIDDLE_BYTES.length + 4) return -1;
    for (let k = 0; k < head.length; k++) if (b[s + k] !== head[k]) return -1;
    const a0 = s + head.length;
    let i = a0;
    let c = 0;
    for (; i < end; i++) {
      c = b[i]!;
      if (c === Ascii.Quote || c === Ascii.Backslash || c < Ascii.Space || c > Ascii.Tilde) break;
    }
    if (c !== Ascii.Quote || i >= end) return -1;
    const action = actionAt(b, a0, i);
    if (action < 0) return -1;
    const middle = MIDDLE_BYTES;
    if (i + middle.length > end) return -1;
    for (let k = 0; k < middle.length; k++) if (b[i + k] !== middle[k]) return -1;
    const d0 = i + middle.length;
    // the destination goes to the set's host chars as it is scanned (the engine reads a hostname there)
    const chars = this.chars;
    for (i = d0; i < end; i++) {
      c = b[i]!;
      if (c === Ascii.Quote || c === Ascii.Backslash || c < Ascii.Space || c > Ascii.Tilde) break;
      chars[(i - d0) & 255] = c;
    }
    const d1 = i;
    // `"}` then `\n` or `\r\n`
    if (c !== Ascii.Quote || d1 + 2 >= end || b[d1 + 1] !== Ascii.RightBrace) return -1;
    let nl = d1 + 2;
    if (b[nl] === Ascii.CarriageReturn) nl++;
    if (nl >= end || b[nl] !== Ascii.LineFeed) return -1;
    if (this.readOnly) {
      const destination = asciiString(b, d0, d1);
      this.lineNo++;
      this.counts.total++;
      if (destination.length === 0) this.counts.errors++;
      return nl + 1;
    }
    // A plain hostname, or a path in normal form, is decided from the input bytes themselves;
    // anything else as a string.
    const set = this.set;
    const ev = this.ev;
    let code: number;
    // (a destination longer than the host chars wrapped around in it, and is no hostname: the engine
    // declines any longer than 254)
    if (action < 2) code = decideHostChars(ev, action === 1, d1 - d0);
    else code = decidePathBytes(ev, action === 3, this.view, d0, d1);
    if (code === NOT_PLAIN) {
      try {
        code = decide(ev, ACTIONS[action]!, asciiString(b, d0, d1));
      } catch {
        // the text path writes the error record
        return -1;
      }
    }
    this.lineNo++;
    const counts = this.counts;
    counts.total++;
    // The line's head is the input's own `{"action":"…","destination":"…"`, byte for byte.
    const headLen = d1 + 1 - s;
    if (code >= 0) {
      if (set.denies[code] === 1) counts.denied++;
      const { tails, tailAt } = this.lineTails;
      const t0 = tailAt[code]!;
      const t1 = tailAt[code + 1]!;
      const out = this.room(headLen + t1 - t0);
      const p = this.pos;
      out.set(this.view.subarray(s, d1 + 1), p);
      out.set(tails.subarray(t0, t1), p + headLen);
      this.pos = p + headLen + t1 - t0;
      return nl + 1;
    }
    const r = mixedResult(ev);
    if (r.decision === 'deny') counts.denied++;
    const json = `,${decisionJson(r)}}\n`;
    const out = this.room(headLen + json.length * 3);
    const p = this.pos;
    out.set(this.view.subarray(s, d1 + 1), p);
    this.pos = p + headLen + utf8Out.encodeInto(json, out.subarray(p + headLen)).written;
    return nl + 1;
  }

  /** The text path for the line b[s, e) (its newline excluded). */
  private line(b: Uint8Array, s: number, e: number): void {
    if (this.readOnly) {
      this.lineNo++;
      try {
        if (parseRequestLine(utf8In.decode(b.subarray(s, e))) !== null) this.counts.total++;
      } catch {
        this.counts.total++;
        this.counts.errors++;
      }
      return;
    }
    const r = evaluateLine(this.ev, utf8In.decode(b.subarray(s, e)), ++this.lineNo, this.opts);
    if (r === null) return;
    this.counts.total++;
    if (r.error) this.counts.errors++;
    else if (r.denied) this.counts.denied++;
    const out = this.room(r.text.length * 3 + 1);
    const p = this.pos + utf8Out.encodeInto(r.text, out.subarray(this.pos)).written;
    out[p] = Ascii.LineFeed;
    this.pos = p + 1;
  }
}
